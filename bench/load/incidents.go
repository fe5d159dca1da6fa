package main

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"

	"github.com/vigil-soc/vigil/store"
)

// Incident data shaped like what alert sources send. The payloads are about
// 500 bytes of JSON because raw data size drives insert cost (JSONB parsing
// on PostgreSQL, page fill on SQLite); a tiny payload would flatter inserts.

// weighted picks values with the given relative weights.
type weighted struct {
	values  []string
	weights []int
	total   int
}

func newWeighted(pairs ...any) weighted {
	var w weighted
	for i := 0; i < len(pairs); i += 2 {
		w.values = append(w.values, pairs[i].(string))
		w.weights = append(w.weights, pairs[i+1].(int))
		w.total += pairs[i+1].(int)
	}
	return w
}

func (w weighted) pick(r *rand.Rand) string {
	n := r.IntN(w.total)
	for i, wt := range w.weights {
		if n < wt {
			return w.values[i]
		}
		n -= wt
	}
	return w.values[len(w.values)-1]
}

// The spread of a SOC queue: mostly phishing and endpoint alerts, few
// critical incidents.
var (
	incidentTypes = newWeighted("phishing", 35, "malware", 20, "suspicious_login", 20,
		"data_exfiltration", 8, "brute_force", 7, "ddos", 5, "insider_threat", 5)
	severities = newWeighted("low", 30, "medium", 40, "high", 22, "critical", 8)
	sources    = map[string]string{
		"phishing": "email-gateway", "malware": "edr", "suspicious_login": "idp",
		"data_exfiltration": "dlp", "brute_force": "waf", "ddos": "netflow", "insider_threat": "ueba",
	}
	firstNames = []string{"jane", "omar", "li", "priya", "lukas", "ana", "kwame", "sofia", "tom", "mei"}
	domains    = []string{"micros0ft-support.com", "paypa1-billing.net", "docusign-secure.co",
		"office365-login.info", "dhl-tracking-id.com", "apple-icloud-verify.org"}
	countries   = []string{"RU", "CN", "BR", "NG", "VN", "RO", "US", "DE", "IN", "KP"}
	malwareFams = []string{"Emotet", "QakBot", "AgentTesla", "RedLine", "Cobalt Strike", "LockBit"}
)

// hex64 returns a SHA-256-looking hex string.
func hex64(r *rand.Rand) string {
	return fmt.Sprintf("%016x%016x%016x%016x", r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64())
}

func ipv4(r *rand.Rand) string {
	return fmt.Sprintf("%d.%d.%d.%d", 45+r.IntN(150), r.IntN(256), r.IntN(256), 1+r.IntN(254))
}

// observedAt is an RFC 3339 time within the last year, as alert sources
// stamp their events.
func observedAt(r *rand.Rand) string {
	return time.Now().UTC().Add(-time.Duration(r.Int64N(int64(365 * 24 * time.Hour)))).Format(time.RFC3339Nano)
}

func user(r *rand.Rand) string { return firstNames[r.IntN(len(firstNames))] }

// rawData returns a payload for an incident of type typ.
func rawData(r *rand.Rand, typ string, i int) map[string]any {
	u := user(r)
	switch typ {
	case "phishing":
		d := domains[r.IntN(len(domains))]
		return map[string]any{
			"sender":      "security@" + d,
			"reply_to":    fmt.Sprintf("helpdesk-%d@%s", r.IntN(1000), d),
			"subject":     "Urgent: verify your account or it will be suspended within 24 hours",
			"recipients":  []string{u + "@corp.example", "finance-team@corp.example"},
			"urls":        []string{fmt.Sprintf("https://%s/login/verify?user=%s&id=%d", d, u, i)},
			"message_id":  fmt.Sprintf("<%x.%d@mail.%s>", r.Uint64(), i, d),
			"spf":         "fail",
			"dkim":        "none",
			"attachments": []map[string]any{{"filename": fmt.Sprintf("invoice_%d.pdf.exe", r.IntN(99999)), "sha256": hex64(r), "size": 20000 + r.IntN(80000)}},
			"reported_by": u + "@corp.example",
		}
	case "malware":
		return map[string]any{
			"host": fmt.Sprintf("wks-%04d.corp.example", r.IntN(5000)), "ip": fmt.Sprintf("10.%d.%d.%d", r.IntN(256), r.IntN(256), 1+r.IntN(254)),
			"user": `CORP\` + u,
			"process": map[string]any{
				"name": "rundll32.exe", "path": `C:\Users\` + u + `\AppData\Local\Temp\upd.dll`,
				"cmdline": `rundll32.exe C:\Users\` + u + `\AppData\Local\Temp\upd.dll,DllRegisterServer`,
				"sha256":  hex64(r), "parent": "winword.exe",
			},
			"detection":   map[string]any{"engine": "edr", "family": malwareFams[r.IntN(len(malwareFams))], "action": "quarantined"},
			"connections": []string{ipv4(r) + ":443", ipv4(r) + ":8080"},
			"event_id":    i,
		}
	case "suspicious_login":
		return map[string]any{
			"user": u + "@corp.example", "source_ip": ipv4(r),
			"geo":                  map[string]any{"country": countries[r.IntN(len(countries))], "city": "unknown", "asn": 9000 + r.IntN(60000)},
			"previous_geo":         map[string]any{"country": "US", "city": "Boston"},
			"user_agent":           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
			"mfa":                  "push_approved_after_fatigue",
			"failed_attempts":      r.IntN(40),
			"impossible_travel_km": 3000 + r.IntN(9000),
			"session_id":           fmt.Sprintf("%x", r.Uint64()),
			"observed_at":          observedAt(r),
			"event_id":             i,
		}
	}
	return map[string]any{
		"summary": fmt.Sprintf("%s alert raised by %s for %s@corp.example", typ, sources[typ], u),
		"user":    u + "@corp.example", "source_ip": ipv4(r), "destination_ip": ipv4(r),
		"bytes_out": r.IntN(5 << 30), "rule": fmt.Sprintf("%s-rule-%03d", typ, r.IntN(200)),
		"evidence": []string{hex64(r), fmt.Sprintf("https://%s/upload/%d", domains[r.IntN(len(domains))], i)},
		"tags":     []string{"corp", "auto", typ}, "event_id": i,
		"sensor":      fmt.Sprintf("%s-sensor-%02d.corp.example", sources[typ], r.IntN(40)),
		"observed_at": observedAt(r),
	}
}

// incidentRow is one incidents row as the bench inserts it directly.
type incidentRow struct {
	ID, Number             string
	Year                   int
	Seq                    int64
	Type, Severity, Status string
	SeverityRank           int
	Source, Description    string
	RawData, Verdict       string // JSON; Verdict "" means NULL
	CreatedAt, UpdatedAt   time.Time
	TriagedAt              *time.Time
}

// seedHistory is how far back the seeded incidents reach.
const seedHistory = 730 * 24 * time.Hour

// seedRow builds incident seq of total, a historical incident created up
// to two years before now. Older incidents are mostly resolved, recent ones
// mostly open, as in a real queue.
//
// Incidents are created in the order of their numbers, as Vigil creates
// them, so the table is written in creation order as a real one is: the
// seed's rows are spread evenly over the two years in number order, each
// at a random point of its own slot. (A seed that wrote random times in
// number order left neighbouring rows of every index but the creation
// one on heap pages months apart, which no table Vigil writes looks like.)
func seedRow(r *rand.Rand, now time.Time, seq, total int64, raw func(typ string, seq int64) string) incidentRow {
	typ := incidentTypes.pick(r)
	sev := severities.pick(r)
	slot := int64(seedHistory) / total
	age := time.Duration((total-seq)*slot + r.Int64N(max(slot, 1)))
	created := now.Add(-age).Truncate(time.Microsecond)
	status := "resolved"
	switch roll := r.IntN(100); {
	case age < 7*24*time.Hour && roll < 60, age >= 7*24*time.Hour && roll < 3:
		status = "open"
	case roll < 75 && age < 30*24*time.Hour, roll < 20:
		status = "triaged"
	}
	row := incidentRow{
		ID: uuid.NewString(), Number: store.FormatIncidentNumber(seedYear, seq), Year: seedYear, Seq: seq,
		Type: typ, Severity: sev, SeverityRank: store.SeverityRank(sev), Status: status,
		Source: sources[typ], Description: typ + " reported by " + sources[typ],
		RawData: raw(typ, seq), CreatedAt: created, UpdatedAt: created,
	}
	if status != "open" {
		t := created.Add(time.Duration(30+r.IntN(600)) * time.Second)
		row.TriagedAt = &t
		row.UpdatedAt = t
		row.Verdict = fmt.Sprintf(`{"classification":"malicious","confidence":0.%02d,"category":"%s","reasoning":"rule match"}`,
			60+r.IntN(40), typ)
	}
	return row
}
