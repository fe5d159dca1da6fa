// Package simulated is the embedded default connector set: an email
// gateway, EDR, ticketing system and notifier that keep real, durable state
// in Vigil's own database instead of calling external tools. Every result
// says it is simulated, so nobody mistakes a simulated isolation for a real
// one.
package simulated

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/store"
)

// Default scan durations: how long after starting a scan reports finished.
const (
	DefaultQuickScan = 5 * time.Second
	DefaultFullScan  = 30 * time.Second
)

// messagePrefix starts every simulated Result and Health message.
const messagePrefix = "[simulated] "

// Option configures New.
type Option func(*backend)

// WithClock replaces the wall clock, so tests can move time forward
// instead of waiting for scans to finish.
func WithClock(now func() time.Time) Option {
	return func(b *backend) { b.clock = now }
}

// WithScanDurations sets how long quick and full scans take.
func WithScanDurations(quick, full time.Duration) Option {
	return func(b *backend) { b.quick, b.full = quick, full }
}

// backend is the state shared by the simulated connectors.
type backend struct {
	st    *store.Store
	clock func() time.Time
	quick time.Duration
	full  time.Duration
}

// New returns a connector set whose state lives in st's sim_* tables.
func New(st *store.Store, opts ...Option) connectors.Set {
	b := &backend{st: st, clock: time.Now, quick: DefaultQuickScan, full: DefaultFullScan}
	for _, o := range opts {
		o(b)
	}
	return connectors.Set{
		Email:     &emailGateway{b},
		EDR:       &edr{b},
		Ticketing: &ticketing{b},
		Notifier:  &notifier{b},
		Identity:  &identity{b},
	}
}

// The simulated connectors implement every kind and check their own health.
var (
	_ connectors.EmailGateway  = (*emailGateway)(nil)
	_ connectors.EDR           = (*edr)(nil)
	_ connectors.Ticketing     = (*ticketing)(nil)
	_ connectors.Notifier      = (*notifier)(nil)
	_ connectors.HealthChecker = (*emailGateway)(nil)
	_ connectors.HealthChecker = (*edr)(nil)
	_ connectors.HealthChecker = (*ticketing)(nil)
	_ connectors.HealthChecker = (*notifier)(nil)
)

// now reads the clock in the store's precision, so a time returned in an
// output and the same time read back from the database are equal.
func (b *backend) now() time.Time { return b.clock().UTC().Truncate(time.Microsecond) }

func (b *backend) db(ctx context.Context) *gorm.DB { return b.st.DB().WithContext(ctx) }

// forUpdate locks the rows a query reads until the transaction ends, so
// two calls changing one host or message take turns. SQLite ignores it;
// its write transactions are already serialised.
func forUpdate(tx *gorm.DB) *gorm.DB {
	return tx.Clauses(clause.Locking{Strength: "UPDATE"})
}

// insertIfAbsent creates row unless its primary key exists and reports
// whether it did. A conflicting insert in progress elsewhere makes this
// wait for it rather than fail.
func insertIfAbsent(tx *gorm.DB, row any) (bool, error) {
	res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(row)
	return res.RowsAffected == 1, res.Error
}

// timestamp renders a time the way the API does: ISO 8601 UTC.
func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// required rejects an empty argument: the connectors can be called
// directly, without the catalog's validation in front of them.
func required(name, value string) error {
	if strings.TrimSpace(value) == "" {
		return connectors.Permanentf("%s is required", name)
	}
	return nil
}

// oneOf checks value against the catalog's enum for an action parameter,
// so the connector and the catalog cannot drift apart.
func oneOf(actionType, param, value string) error {
	typ, _ := actions.Lookup(actionType)
	p, _ := typ.Param(param)
	for _, v := range p.Enum {
		if v == value {
			return nil
		}
	}
	return connectors.Permanentf("%s must be one of: %s", param, strings.Join(p.Enum, ", "))
}

// healthOf is the health every simulated connector reports: healthy while
// the database answers.
func (b *backend) healthOf(ctx context.Context, name, kind string) connectors.Health {
	h := connectors.Health{Name: name, Type: kind, Simulated: true, Status: connectors.StatusHealthy,
		Message: messagePrefix + "state is kept in the Vigil database; no external system is contacted"}
	if err := b.st.Ping(ctx); err != nil {
		h.Status = connectors.StatusUnhealthy
		h.Message = messagePrefix + fmt.Sprintf("database unreachable: %v", err)
	}
	return h
}
