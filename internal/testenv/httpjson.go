package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// CallJSON sends body (when not nil) as JSON to url with the API key as a
// bearer token and returns the status and the decoded JSON answer (nil
// when the answer is not a JSON object). A transport error fails the test.
func CallJSON(t testing.TB, method, url, key string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}
