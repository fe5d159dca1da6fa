package api

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/store"
)

// sourceCacheTTL bounds how long a webhook source (or its absence) is
// served from memory. A rotation or removal through this process takes
// effect at once; one made through another API process within this time.
const sourceCacheTTL = time.Second

// backlogCacheTTL bounds how long the intake trusts its last look at the
// queue of alerts waiting for their incident.
const backlogCacheTTL = 250 * time.Millisecond

// cachedSource is a webhook source with its secret opened and its
// mapping compiled, or the fact that no source of that name is
// registered (src nil).
type cachedSource struct {
	src      *store.WebhookSource
	secret   string
	mapping  *intake.Mapping
	loadedAt time.Time
}

// sourceCache keeps recently used webhook sources, so an alert costs no
// read of its source, nor a decryption of its secret.
type sourceCache struct {
	mu sync.Mutex
	m  map[string]cachedSource
	// gen counts invalidations: a read that began before one must not
	// store what it read.
	gen uint64
}

// cachedWebhookSource returns the source with its opened secret and
// compiled mapping, from memory when fresh. store.ErrNotFound means no
// source of that name.
func (s *server) cachedWebhookSource(ctx context.Context, name string) (cachedSource, error) {
	c := &s.sources
	c.mu.Lock()
	e, ok := c.m[name]
	gen := c.gen
	c.mu.Unlock()
	if ok && time.Since(e.loadedAt) < sourceCacheTTL {
		if e.src == nil {
			return e, store.ErrNotFound
		}
		return e, nil
	}
	e = cachedSource{loadedAt: time.Now()}
	src, err := s.store.GetWebhookSource(ctx, name)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return e, err
	default:
		if src.Signed() {
			secret, err := s.opts.Secrets.Open(src.SecretEncrypted, secretContext)
			if err != nil {
				return cachedSource{src: src}, &secretError{err}
			}
			e.secret = secret
		}
		mapping, err := intake.CompileSourceMapping(src)
		if err != nil {
			return cachedSource{src: src}, err
		}
		e.src, e.mapping = src, mapping
	}
	c.mu.Lock()
	if c.gen == gen {
		if c.m == nil || len(c.m) > maxCachedSources {
			c.m = map[string]cachedSource{}
		}
		c.m[name] = e
	}
	c.mu.Unlock()
	if e.src == nil {
		return e, store.ErrNotFound
	}
	return e, nil
}

// maxCachedSources bounds the cache: senders choose the names they try.
const maxCachedSources = 1024

// forgetWebhookSources drops every cached source; registrations and
// removals call it so they apply to the next alert.
func (s *server) forgetWebhookSources() {
	c := &s.sources
	c.mu.Lock()
	c.m = nil
	c.gen++
	c.mu.Unlock()
}

// secretError means a source's stored secret cannot be opened.
type secretError struct{ err error }

func (e *secretError) Error() string { return "open webhook secret: " + e.err.Error() }
func (e *secretError) Unwrap() error { return e.err }

// backlogState remembers whether alerts were waiting in the queue at the
// last look, so the intake does not count the queue on every alert.
type backlogState struct {
	mu        sync.Mutex
	waiting   bool
	checkedAt time.Time
}

// alertsWaiting reports whether queued alerts still wait for their
// incident, looking at the queue at most every backlogCacheTTL. An alert
// this process queues marks the queue as waiting at once, so the alerts
// after it queue behind it and order is kept.
func (s *server) alertsWaiting(ctx context.Context) bool {
	b := &s.backlog
	b.mu.Lock()
	if time.Since(b.checkedAt) < backlogCacheTTL {
		w := b.waiting
		b.mu.Unlock()
		return w
	}
	b.mu.Unlock()
	n, err := s.store.IntakeBacklog(ctx, store.IntakeAlert)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.waiting, b.checkedAt = err != nil || n > 0, time.Now()
	return b.waiting
}

// alertQueued marks the queue as holding an alert.
func (s *server) alertQueued() {
	b := &s.backlog
	b.mu.Lock()
	b.waiting, b.checkedAt = true, time.Now()
	b.mu.Unlock()
}
