package e2e

import (
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"testing"
	"time"
)

// pageBudget is a loose ceiling for one page on a shared test machine;
// the goal is 50 ms, and the median of each page is logged against it.
const pageBudget = 500 * time.Millisecond

// measurePages signs in over HTTP and times the server's answer for each
// page (several in-process API calls each), failing above pageBudget.
func measurePages(t *testing.T, base, name string, paths ...string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Post(base+"/login", "application/json",
		strings.NewReader(`{"login":"`+name+`","password":"`+userPassword+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("sign-in for timing: %d", res.StatusCode)
	}
	for _, p := range paths {
		var times []time.Duration
		// Few rounds: every page makes several API reads, and they count
		// against this session's read limit like any other client's.
		for range 3 {
			start := time.Now()
			res, err := client.Get(base + p)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", p, res.StatusCode)
			}
			times = append(times, time.Since(start))
		}
		slices.Sort(times)
		median := times[len(times)/2]
		t.Logf("GET %s: median %v (goal 50ms)", p, median.Round(100*time.Microsecond))
		if median > pageBudget {
			t.Errorf("GET %s takes %v, above %v", p, median, pageBudget)
		}
	}
}
