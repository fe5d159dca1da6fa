package api

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// throttleRule is a budget of failed sign-ins for one key per fixed window.
type throttleRule struct {
	key    string
	limit  int
	period time.Duration
}

// Failed-login budgets, per account and per client address.
const (
	loginAccountLimit = 5
	loginAddressLimit = 20
	loginWindow       = 15 * time.Minute
)

type throttleWindow struct {
	count int
	ends  time.Time
}

// loginThrottle counts failed sign-ins in fixed windows. An attempt takes
// its place in the count before its password is checked: a check that
// only looked, and counted afterwards, let any number of parallel guesses
// through while the first ones were still hashing. A successful sign-in
// gives its place back.
type loginThrottle struct {
	mu        sync.Mutex
	windows   map[string]*throttleWindow
	lastSweep time.Time
}

func newLoginThrottle() *loginThrottle {
	return &loginThrottle{windows: map[string]*throttleWindow{}}
}

// reserve counts one attempt against every rule, or against none when any
// rule's budget is spent, and then says how long until that window ends.
func (t *loginThrottle) reserve(rules ...throttleRule) (wait time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := time.Now()
	t.sweep(now)
	for _, r := range rules {
		if w := t.windows[r.key]; w != nil && now.Before(w.ends) && w.count >= r.limit {
			return w.ends.Sub(now), false
		}
	}
	for _, r := range rules {
		w := t.windows[r.key]
		if w == nil || !now.Before(w.ends) {
			w = &throttleWindow{ends: now.Add(r.period)}
			t.windows[r.key] = w
		}
		w.count++
	}
	return 0, true
}

// release gives back one attempt reserved under key.
func (t *loginThrottle) release(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if w := t.windows[key]; w != nil && w.count > 0 {
		w.count--
	}
}

// reset forgets every attempt under key.
func (t *loginThrottle) reset(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.windows, key)
}

// sweep drops ended windows once a minute so the map holds only live ones.
func (t *loginThrottle) sweep(now time.Time) {
	if now.Sub(t.lastSweep) < time.Minute {
		return
	}
	t.lastSweep = now
	for k, w := range t.windows {
		if !now.Before(w.ends) {
			delete(t.windows, k)
		}
	}
}

// Sign-in body types. Only the declared type is decoded: a text/plain body
// that happens to be JSON is what a cross-site form can send without a
// preflight.
const (
	loginJSON = "application/json"
	loginForm = "application/x-www-form-urlencoded"
)

// CodeUnsupportedMediaType refuses a body of a type the route does not read.
const CodeUnsupportedMediaType = "unsupported_media_type"

// loginBodyType returns the declared media type of a sign-in, or an error
// for any type other than JSON and the HTML form's.
func loginBodyType(c *gin.Context) (string, error) {
	switch t := strings.ToLower(c.ContentType()); t {
	case loginJSON, loginForm:
		return t, nil
	}
	return "", newError(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType,
		"sign in with Content-Type application/json or the HTML form at /login (application/x-www-form-urlencoded)")
}

// sameOriginPost tells a sign-in posted by this site, or by a client that
// is not a browser, from one that a page elsewhere made a browser send
// (login CSRF: the victim would work signed in as the attacker). Browsers
// send Origin with every POST, "null" when they hide it; older ones that
// omit it send Sec-Fetch-Site or Referer. A request with none of the three
// comes from no browser, and forging them needs no victim.
func sameOriginPost(c *gin.Context) bool {
	if origin := c.GetHeader("Origin"); origin != "" {
		return namesHost(origin, c.Request.Host)
	}
	if site := c.GetHeader("Sec-Fetch-Site"); site != "" {
		return site == "same-origin" || site == "none"
	}
	if referer := c.GetHeader("Referer"); referer != "" {
		return namesHost(referer, c.Request.Host)
	}
	return true
}

func namesHost(rawURL, host string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, host)
}
