package hunt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// MaxEvidenceBytes caps the evidence a finding keeps of its row.
const MaxEvidenceBytes = 16 << 10

// Fingerprint identifies a row's evidence for a query: the query's key
// columns when it declares them, otherwise the whole row. The same
// evidence in a later run has the same fingerprint.
func Fingerprint(queryKey string, keys []string, row map[string]any) string {
	h := sha256.New()
	h.Write([]byte(queryKey))
	if len(keys) == 0 {
		for k := range row {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	for _, k := range keys {
		fmt.Fprintf(h, "\x00%s=%v", k, row[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Evidence returns the row, cut to MaxEvidenceBytes: long text values are
// shortened and the cut is marked.
func Evidence(row map[string]any) map[string]any {
	b, _ := json.Marshal(row)
	if len(b) <= MaxEvidenceBytes {
		return row
	}
	out := make(map[string]any, len(row)+1)
	per := MaxEvidenceBytes / max(1, len(row))
	for k, v := range row {
		if s, ok := v.(string); ok && len(s) > per {
			v = s[:per] + "…"
		}
		out[k] = v
	}
	out["_truncated"] = true
	return out
}

// Severities in rising order.
var Severities = []string{"low", "medium", "high", "critical"}

// RowSeverity is the severity a row carries in field, when it names one;
// otherwise def.
func RowSeverity(row map[string]any, field, def string) string {
	if field != "" {
		if s, ok := row[field].(string); ok && slices.Contains(Severities, strings.ToLower(s)) {
			return strings.ToLower(s)
		}
	}
	return def
}
