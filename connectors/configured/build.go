package configured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/httpaction"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/store"
)

// built is the connectors made from one version of the configuration.
type built struct {
	fingerprint string
	set         connectors.Set
	intel       []intel.Source
	// servedBy maps a kind to the connector id serving it.
	servedBy map[string]string
	// impls maps a connector id to what its vendor built.
	impls map[string]any
	// failed maps a connector id to why it could not be built.
	failed map[string]error
}

// CheckTTL bounds how long a build is used without checking that the
// stored configuration and the outbound policy are unchanged. Writes
// through this Service (and outbound policy writes the settings service
// reports, see app) invalidate at once; other processes' writes are
// noticed by the fingerprint within this time.
const CheckTTL = time.Second

// Invalidate drops the cached connectors; the next use rebuilds them.
// Writes through this Service call it; other processes notice a changed
// configuration by its fingerprint.
func (s *Service) Invalidate() {
	s.mu.Lock()
	s.cache = nil
	s.mu.Unlock()
	s.checked.Forget()
}

// Set returns the connectors for the current configuration: the
// configured connector serving each kind, the simulated one otherwise, and
// the http_request executor. Secrets stay inside the built connectors.
func (s *Service) Set(ctx context.Context) (connectors.Set, error) {
	b, err := s.current(ctx)
	if err != nil {
		return connectors.Set{}, err
	}
	return b.set, nil
}

// current returns the cached build, rebuilding it when the stored
// configuration or the outbound policy changed. The check reads only the
// connectors' ids and change times; settings and sealed secrets are read
// when a rebuild is due. A build checked within CheckTTL is used as it is.
func (s *Service) current(ctx context.Context) (*built, error) {
	return s.checked.Get(ctx, CheckTTL, s.check)
}

// check returns the cached build if the stored configuration and the
// outbound policy are unchanged since it was made, and a new build
// otherwise.
func (s *Service) check(ctx context.Context) (*built, error) {
	stamps, err := s.Store.ConnectorConfigStamps(ctx)
	if err != nil {
		return nil, err
	}
	fp := s.fingerprint(ctx, stamps)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache != nil && s.cache.fingerprint == fp {
		return s.cache, nil
	}
	rows, err := s.Store.ListConnectorConfigs(ctx)
	if err != nil {
		return nil, err
	}
	b := s.build(ctx, rows)
	b.fingerprint = fp
	s.cache = b
	return b, nil
}

// latest returns the last build without checking it is current, or a
// checked one when there is none yet: for reads that accompany a lookup
// which has just checked (the intel source's name and label).
func (s *Service) latest(ctx context.Context) (*built, error) {
	s.mu.Lock()
	b := s.cache
	s.mu.Unlock()
	if b != nil {
		return b, nil
	}
	return s.current(ctx)
}

func (s *Service) fingerprint(ctx context.Context, stamps []store.ConnectorStamp) string {
	var sb strings.Builder
	for _, r := range stamps {
		fmt.Fprintf(&sb, "%s@%d;", r.ID, r.UpdatedAt.UnixNano())
	}
	if s.Policy != nil {
		p, _ := json.Marshal(s.Policy(ctx))
		sb.Write(p)
	}
	return sb.String()
}

func (s *Service) build(ctx context.Context, rows []store.ConnectorConfig) *built {
	b := &built{set: s.Simulated, servedBy: map[string]string{}, impls: map[string]any{}, failed: map[string]error{}}
	b.set.HTTP = &httpaction.Executor{Policy: s.Policy, Credential: s.credential}
	for _, row := range rows {
		impl, err := s.instantiate(ctx, row)
		if err != nil {
			b.failed[row.ID] = err
			if s.Log != nil {
				s.Log.Warn("connector cannot be built", "connector", row.ID, "type", row.VendorType, "error", err)
			}
			continue
		}
		b.impls[row.ID] = impl
		for _, kind := range row.Serves.V {
			if err := assign(b, kind, impl); err != nil {
				b.failed[row.ID] = fmt.Errorf("%s: %w", row.ID, err)
				continue
			}
			b.servedBy[kind] = row.ID
		}
	}
	if len(b.intel) == 0 && s.SimulatedIntel != nil {
		b.intel = []intel.Source{s.SimulatedIntel}
	}
	return b
}

// instantiate builds one stored connector through its vendor.
func (s *Service) instantiate(ctx context.Context, row store.ConnectorConfig) (any, error) {
	v, ok := connectors.LookupVendor(row.VendorType)
	if !ok {
		return nil, fmt.Errorf("vendor type %q is not part of this build", row.VendorType)
	}
	cfg, err := s.config(ctx, row, v)
	if err != nil {
		return nil, err
	}
	return v.New(cfg)
}

// assign puts impl in the Set field of kind.
func assign(b *built, kind string, impl any) error {
	ok := false
	switch kind {
	case connectors.KindEmailGateway:
		b.set.Email, ok = impl.(connectors.EmailGateway)
	case connectors.KindEDR:
		b.set.EDR, ok = impl.(connectors.EDR)
	case connectors.KindTicketing:
		b.set.Ticketing, ok = impl.(connectors.Ticketing)
	case connectors.KindNotifier:
		b.set.Notifier, ok = impl.(connectors.Notifier)
	case connectors.KindIdentity:
		b.set.Identity, ok = impl.(connectors.Identity)
	case connectors.KindIntel:
		var src intel.Source
		if src, ok = impl.(intel.Source); ok {
			b.intel = append(b.intel, src)
		}
	}
	if !ok {
		return fmt.Errorf("does not implement kind %s", kind)
	}
	return nil
}

// credential resolves an http_credential connector for http_request.
func (s *Service) credential(ctx context.Context, id string) (httpaction.Credential, error) {
	row, err := s.Store.GetConnectorConfig(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && row.VendorType != httpaction.CredentialType) {
		return httpaction.Credential{}, connectors.Permanentf("no %s connector %q is configured", httpaction.CredentialType, id)
	}
	if err != nil {
		return httpaction.Credential{}, err
	}
	v, _ := connectors.LookupVendor(row.VendorType)
	cfg, err := s.config(ctx, *row, v)
	if err != nil {
		return httpaction.Credential{}, err
	}
	return httpaction.CredentialFrom(cfg), nil
}
