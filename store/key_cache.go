package store

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
)

// credentialsChannel is the PostgreSQL notification channel a trigger
// signals on every change to api_keys or users (migration 00022).
const credentialsChannel = "vigil_credentials"

// keyCacheTTL bounds how long a key's record is served from memory even
// when no change was heard, as a second line behind the listener.
const keyCacheTTL = 10 * time.Second

// keyCacheMax bounds the cache; a full cache is emptied and refills with
// the keys in use.
const keyCacheMax = 10000

// keyCache holds the records of API keys in use and their owners, so a
// request on PostgreSQL authenticates without a query. It serves entries
// only while a listening connection hears credentialsChannel: every
// change to a key or a user, from this process, another one or an
// operator's psql, empties it when it commits. Without a listener (SQLite,
// or the connection lost) every request reads the database.
type keyCache struct {
	mu        sync.Mutex
	entries   map[string]keyEntry
	gen       uint64 // counts invalidations: a read that began before one is not kept
	listening bool
}

// keyEntry is one key's record and its owner as read together.
type keyEntry struct {
	key      APIKey
	owner    User
	loadedAt time.Time
}

// get answers a copy of the cached record of the key with this hash.
func (c *keyCache) get(hash string) (APIKey, User, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	if !ok || !c.listening || time.Since(e.loadedAt) >= keyCacheTTL {
		return APIKey{}, User{}, false
	}
	k := e.key
	k.Scopes = NewJSON(slices.Clone(k.Scopes.V))
	return k, e.owner, true
}

// isListening reports whether changes are heard.
func (c *keyCache) isListening() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.listening
}

// begin returns the generation a database read starts in, for put.
func (c *keyCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put keeps a record read in generation gen, unless a change was heard
// since the read began or nobody is listening.
func (c *keyCache) put(hash string, gen uint64, k APIKey, owner User) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || !c.listening {
		return
	}
	if c.entries == nil || len(c.entries) >= keyCacheMax {
		c.entries = map[string]keyEntry{}
	}
	k.Owner = nil
	c.entries[hash] = keyEntry{key: k, owner: owner, loadedAt: time.Now()}
}

// touch records a last-use time written for a cached key.
func (c *keyCache) touch(hash string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[hash]; ok {
		e.key.LastUsedAt = &at
		c.entries[hash] = e
	}
}

// forget empties the cache and turns away reads already under way.
func (c *keyCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = nil
	c.gen++
}

// setListening records whether changes are heard; either way the cache
// starts empty, since changes may have gone unheard.
func (c *keyCache) setListening(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.listening = on
	c.entries = nil
	c.gen++
}

// keyListener keeps a PostgreSQL connection listening on
// credentialsChannel and empties the cache on every notification.
type keyListener struct {
	stop context.CancelFunc
	done sync.WaitGroup
}

// listenRetry is how long the listener waits before connecting again;
// listenProbeWait is how long it waits to hear its own test notification.
const (
	listenRetry     = time.Second
	listenProbeWait = 5 * time.Second
)

// probeFunc sends a notification on credentialsChannel carrying token,
// over a connection other than the listener's.
type probeFunc func(ctx context.Context, token string) error

// startKeyListener listens on databaseURL until close, reconnecting after
// a lost connection; the cache serves nothing while it is not listening.
// The cache serves only once the listener has heard its own probe (a token
// of its own, so a change announced meanwhile does not count), so a
// connection that cannot hear (a pooler in transaction mode) never turns
// it on.
func startKeyListener(databaseURL string, cache *keyCache, probe probeFunc) *keyListener {
	ctx, cancel := context.WithCancel(context.Background())
	l := &keyListener{stop: cancel}
	l.done.Go(func() {
		for ctx.Err() == nil {
			listenOnce(ctx, databaseURL, cache, probe)
			select {
			case <-ctx.Done():
			case <-time.After(listenRetry):
			}
		}
	})
	return l
}

// listenOnce holds one listening connection until it fails or ctx ends.
func listenOnce(ctx context.Context, databaseURL string, cache *keyCache, probe probeFunc) {
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(closeCtx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+credentialsChannel); err != nil {
		return
	}
	token := uuid.NewString()
	if err := probe(ctx, token); err != nil {
		return
	}
	if !hearProbe(ctx, conn, token) {
		return
	}
	cache.setListening(true)
	defer cache.setListening(false)
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return
		}
		cache.forget()
	}
}

// hearProbe waits up to listenProbeWait for the notification carrying
// token.
func hearProbe(ctx context.Context, conn *pgx.Conn, token string) bool {
	heard, cancel := context.WithTimeout(ctx, listenProbeWait)
	defer cancel()
	for {
		n, err := conn.WaitForNotification(heard)
		if err != nil {
			return false
		}
		if n.Payload == token {
			return true
		}
	}
}

// listenForKeyChanges starts the key listener on PostgreSQL, once.
func (s *Store) listenForKeyChanges() {
	if s.dialect != DialectPostgres {
		return
	}
	s.keyListenerOnce.Do(func() {
		s.keyListener = startKeyListener(s.databaseURL, s.keys, s.probeCredentialsChannel)
	})
}

// probeCredentialsChannel sends the listener's test notification, but only
// once the trigger that announces changes exists (migration 00022): until
// then a change would go unheard, so the cache must stay off.
func (s *Store) probeCredentialsChannel(ctx context.Context, token string) error {
	return s.db.WithContext(ctx).Exec(`SELECT pg_notify(?, ?) FROM pg_trigger
		WHERE tgrelid = to_regclass('api_keys') AND tgname = 'api_keys_changed'`, credentialsChannel, token).Error
}

// close stops the listener and waits for it; nil is a no-op.
func (l *keyListener) close() {
	if l == nil {
		return
	}
	l.stop()
	l.done.Wait()
}
