// Package vendortest holds what the vendor connector tests share: building
// a registered vendor type the way the configured set does, and checking
// that it serves what it declares.
package vendortest

import (
	"net/http"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/intel"
)

// Build constructs cfg.Type from its registration (a 5 s client when
// cfg.HTTP is nil) and fails t unless the value implements the interface
// of every kind the vendor declares, and connectors.Tester, and is a T.
func Build[T any](t testing.TB, cfg connectors.Config) T {
	t.Helper()
	v, ok := connectors.LookupVendor(cfg.Type)
	if !ok {
		t.Fatalf("vendor type %q is not registered", cfg.Type)
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 5 * time.Second}
	}
	c, err := v.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range v.Kinds {
		if !serves(c, kind) {
			t.Fatalf("%s declares kind %s but does not implement its interface", cfg.Type, kind)
		}
	}
	if _, ok := c.(connectors.Tester); !ok {
		t.Fatalf("%s is not a connectors.Tester", cfg.Type)
	}
	out, ok := c.(T)
	if !ok {
		t.Fatalf("%s built a %T", cfg.Type, c)
	}
	return out
}

// serves reports whether c implements the interface of kind.
func serves(c any, kind string) bool {
	var ok bool
	switch kind {
	case connectors.KindEDR:
		_, ok = c.(connectors.EDR)
	case connectors.KindEmailGateway:
		_, ok = c.(connectors.EmailGateway)
	case connectors.KindIdentity:
		_, ok = c.(connectors.Identity)
	case connectors.KindTicketing:
		_, ok = c.(connectors.Ticketing)
	case connectors.KindNotifier:
		_, ok = c.(connectors.Notifier)
	case connectors.KindIntel:
		_, ok = c.(intel.Source)
	default:
		ok = true
	}
	return ok
}
