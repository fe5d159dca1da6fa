package verdict

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// EnvFile names the environment variable that gives the bench programs'
// default file for their verdicts; make bench sets it.
const EnvFile = "BENCH_VERDICTS"

// DefaultFile is the file named by $BENCH_VERDICTS, or "" for none.
func DefaultFile() string { return os.Getenv(EnvFile) }

// Append adds vs to the file at path as JSON lines, creating it when
// needed; an empty path keeps them nowhere.
func Append(path string, vs []Verdict) (err error) {
	if path == "" || len(vs) == 0 {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("verdicts: %w", err)
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("verdicts: %w", err)
		}
	}
	return nil
}

// Read returns the verdicts in the file at path, in the order they were
// appended.
func Read(path string) ([]Verdict, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("verdicts: %w", err)
	}
	defer f.Close()
	var out []Verdict
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var v Verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("verdicts: %s line %d: %w", path, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("verdicts: %s: %w", path, err)
	}
	return out, nil
}
