package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/store"
)

// loginServer is a server of its own, so the failed sign-ins a test makes
// from 127.0.0.1 do not spend the address budget of the shared one.
func loginServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(newRouter(env.temporal, time.Second))
	t.Cleanup(srv.Close)
	return srv.URL
}

// passwordChecks records the cost of every bcrypt comparison sign-ins make
// until the test ends.
type passwordChecks struct {
	mu    sync.Mutex
	costs []int
}

func observePasswordChecks(t *testing.T) *passwordChecks {
	pc := &passwordChecks{}
	stop := store.ObservePasswordChecks(func(cost int) {
		pc.mu.Lock()
		defer pc.mu.Unlock()
		pc.costs = append(pc.costs, cost)
	})
	t.Cleanup(stop)
	return pc
}

// take returns the costs recorded since the last call.
func (pc *passwordChecks) take() []int {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	out := pc.costs
	pc.costs = nil
	return out
}

func postLogin(t *testing.T, base string, body any, headers map[string]string) response {
	t.Helper()
	return doRequest(t, newBrowser(t), base, http.MethodPost, "/login", "", body, headers)
}

// TestFailedLoginsCostTheSameForEveryAccount: a sign-in for an unknown
// name used to be answered at once while a real account took a full bcrypt
// comparison, so names could be enumerated by timing. Every failure now
// makes exactly one comparison at the configured cost.
func TestFailedLoginsCostTheSameForEveryAccount(t *testing.T) {
	base := loginServer(t)
	real := userWithPassword(t, store.RoleAnalyst)
	disabled := userWithPassword(t, store.RoleAnalyst)
	if _, err := env.store.UpdateUser(context.Background(), disabled.ID, store.UserUpdate{Enabled: new(false)}); err != nil {
		t.Fatal(err)
	}
	keyOnly, err := env.store.CreateUser(context.Background(), store.NewUser{
		Username: "keyonly-" + randomSuffix(), Email: "keyonly-" + randomSuffix() + "@example.com", Role: store.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	checks := observePasswordChecks(t)
	cases := []struct{ name, login, password string }{
		{"unknown user", "nobody-" + randomSuffix(), "not the password!"},
		{"unknown email", "nobody-" + randomSuffix() + "@example.com", "not the password!"},
		{"wrong password", real.Username, "not the password!"},
		{"disabled user, right password", disabled.Username, testPassword},
		{"user without a password", keyOnly.Username, "not the password!"},
	}
	var bodies []string
	for _, tc := range cases {
		r := postLogin(t, base, map[string]any{"login": tc.login, "password": tc.password}, nil)
		expectStatus(t, r, http.StatusUnauthorized)
		bodies = append(bodies, string(r.Raw))
		if costs := checks.take(); len(costs) != 1 || costs[0] != store.BcryptCost {
			t.Errorf("%s: bcrypt comparisons at costs %v, want one at cost %d", tc.name, costs, store.BcryptCost)
		}
	}
	if len(slices.Compact(slices.Clone(bodies))) != 1 {
		t.Errorf("failure answers differ: %q", bodies)
	}

	// A coarse look at the clock as well, with a wide margin for a busy
	// machine: before, an unknown name answered about a hundred times faster.
	median := func(login string) time.Duration {
		var ds []time.Duration
		for range 3 {
			start := time.Now()
			postLogin(t, base, map[string]any{"login": login, "password": "not the password!"}, nil)
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		return ds[1]
	}
	known, unknown := median(real.Email), median("nobody-"+randomSuffix())
	if unknown*4 < known {
		t.Errorf("unknown name answered in %v, real account in %v", unknown, known)
	}
}

// TestParallelGuessesAreCountedBeforeHashing: the throttle used to look
// before hashing and count after, so a burst of guesses all passed the
// look. Now each guess takes its place first and the burst is held to the
// account's budget of comparisons.
func TestParallelGuessesAreCountedBeforeHashing(t *testing.T) {
	base := loginServer(t)
	u := userWithPassword(t, store.RoleAnalyst)
	checks := observePasswordChecks(t)
	const guesses = 50
	statuses := make([]int, guesses)
	var wg sync.WaitGroup
	for i := range guesses {
		wg.Go(func() {
			res, err := http.Post(base+"/login", "application/json",
				strings.NewReader(`{"login":"`+u.Username+`","password":"guess number `+randomSuffix()+`"}`))
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			statuses[i] = res.StatusCode
		})
	}
	wg.Wait()
	compared := len(checks.take())
	const budget = 5 // failed sign-ins per account per window
	if compared > budget || compared == 0 {
		t.Fatalf("%d parallel guesses made %d password comparisons, want 1 to %d", guesses, compared, budget)
	}
	counts := map[int]int{}
	for _, s := range statuses {
		counts[s]++
	}
	if counts[http.StatusUnauthorized] != compared || counts[http.StatusTooManyRequests] != guesses-compared {
		t.Fatalf("answers %v for %d comparisons", counts, compared)
	}
	// The budget is spent: even the right password waits, without hashing.
	r := postLogin(t, base, map[string]any{"login": u.Username, "password": testPassword}, nil)
	expectStatus(t, r, http.StatusTooManyRequests)
	if n := len(checks.take()); n != 0 {
		t.Fatalf("throttled sign-in made %d comparisons", n)
	}
}

func TestSuccessfulLoginsDoNotSpendTheAddressBudget(t *testing.T) {
	base := loginServer(t)
	u := userWithPassword(t, store.RoleViewer)
	for i := range 25 { // more than the 20 failures an address may make
		r := postLogin(t, base, map[string]any{"login": u.Username, "password": testPassword}, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("sign-in %d: %d %s", i+1, r.Status, r.Raw)
		}
	}
}

func TestOverlongLoginNameIsRefusedUnhashed(t *testing.T) {
	base := loginServer(t)
	checks := observePasswordChecks(t)
	r := postLogin(t, base, map[string]any{"login": strings.Repeat("a", 255), "password": "not the password!"}, nil)
	expectStatus(t, r, http.StatusUnprocessableEntity)
	if _, ok := r.errDetails()["login"]; !ok {
		t.Fatalf("details do not name login: %s", r.Raw)
	}
	if n := len(checks.take()); n != 0 {
		t.Fatalf("overlong name made %d comparisons", n)
	}
}

// TestLoginRefusesCrossSitePosts replays login CSRF: a page elsewhere posts
// a text/plain form whose body reads as JSON, and the victim's browser
// ends up signed in as the attacker.
func TestLoginRefusesCrossSitePosts(t *testing.T) {
	u := userWithPassword(t, store.RoleViewer)
	jsonBody := `{"login":"` + u.Username + `","password":"` + testPassword + `"}`
	form := url.Values{"login": {u.Username}, "password": {testPassword}}.Encode()
	here := strings.TrimSuffix(env.server.URL, "/")
	cases := []struct {
		name    string
		body    string
		headers map[string]string
		want    int
	}{
		{"text/plain from another site", jsonBody, map[string]string{"Content-Type": "text/plain", "Origin": "https://evil.example"}, http.StatusForbidden},
		{"text/plain without origin", jsonBody, map[string]string{"Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
		{"no content type", jsonBody, map[string]string{"Content-Type": ""}, http.StatusUnsupportedMediaType},
		{"multipart", jsonBody, map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, http.StatusUnsupportedMediaType},
		{"JSON from another site", jsonBody, map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{"JSON with a hidden origin", jsonBody, map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"cross-site fetch metadata", jsonBody, map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"foreign referer", jsonBody, map[string]string{"Referer": "https://evil.example/login.html"}, http.StatusForbidden},
		{"form from another site", form, map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "https://evil.example"}, http.StatusSeeOther},
		{"JSON from this site", jsonBody, map[string]string{"Origin": here}, http.StatusOK},
		{"JSON from a client that is no browser", jsonBody, nil, http.StatusOK},
		{"form from this site", form, map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": here, "Sec-Fetch-Site": "same-origin"}, http.StatusSeeOther},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newBrowser(t)
			r := doRequest(t, b, env.server.URL, http.MethodPost, "/login", "", tc.body, tc.headers)
			expectStatus(t, r, tc.want)
			signedIn := doRequest(t, b, env.server.URL, http.MethodGet, "/api/users/me", "", nil, nil).Status == http.StatusOK
			wantSignedIn := tc.want == http.StatusOK || (tc.want == http.StatusSeeOther && r.Header.Get("Location") == "/")
			if signedIn != wantSignedIn {
				t.Fatalf("signed in: %v, want %v (%d %s %s)", signedIn, wantSignedIn, r.Status, r.Header.Get("Location"), r.Raw)
			}
		})
	}
}
