package configured

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/store"
)

// View is a connector as GET /api/connectors shows it; secrets appear
// only as the names of those that are set.
type View struct {
	ID         string            `json:"id"`
	Type       string            `json:"type"`
	Title      string            `json:"title"`
	Kinds      []string          `json:"kinds"`
	Serves     []string          `json:"serves"`
	Settings   map[string]string `json:"settings"`
	SecretsSet []string          `json:"secrets_set"`
	Simulated  bool              `json:"simulated"`
	Builtin    bool              `json:"builtin,omitempty"`
	Health     connectors.Health `json:"health"`
	CreatedAt  *time.Time        `json:"created_at,omitempty"`
	UpdatedAt  *time.Time        `json:"updated_at,omitempty"`
}

// List returns the configured connectors by id, then the built-in
// simulated connectors with the kinds they still serve.
func (s *Service) List(ctx context.Context) ([]View, error) {
	rows, err := s.Store.ListConnectorConfigs(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]View, 0, len(rows)+1)
	for _, r := range rows {
		out = append(out, s.view(ctx, r))
	}
	b, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	sim := View{ID: SimulatedID, Type: SimulatedID, Title: "Simulated connectors (state kept in the Vigil database)",
		Kinds: RoutableKinds, Serves: []string{}, Settings: map[string]string{}, SecretsSet: []string{},
		Simulated: true, Builtin: true,
		Health: connectors.Health{Name: SimulatedID, Type: SimulatedID, Status: connectors.StatusHealthy, Simulated: true,
			Message: "[simulated] no external system is contacted"}}
	for _, k := range RoutableKinds {
		if _, served := b.servedBy[k]; !served {
			sim.Serves = append(sim.Serves, k)
		}
	}
	return append(out, sim), nil
}

// Get returns one configured connector's view.
func (s *Service) Get(ctx context.Context, id string) (View, error) {
	row, err := s.Store.GetConnectorConfig(ctx, id)
	if err != nil {
		return View{}, err
	}
	return s.view(ctx, *row), nil
}

func (s *Service) view(ctx context.Context, r store.ConnectorConfig) View {
	v := View{ID: r.ID, Type: r.VendorType, Settings: r.Settings.V, Serves: r.Serves.V, SecretsSet: []string{},
		Kinds: []string{}, CreatedAt: &r.CreatedAt, UpdatedAt: &r.UpdatedAt}
	if vendor, ok := connectors.LookupVendor(r.VendorType); ok {
		v.Title, v.Kinds = vendor.Title, vendor.Kinds
	}
	if sec, err := s.openStored(&r); err == nil {
		for name := range sec {
			v.SecretsSet = append(v.SecretsSet, name)
		}
		sort.Strings(v.SecretsSet)
	}
	v.Health = s.healthOf(ctx, r.ID, r.VendorType)
	return v
}

// healthOf reports one configured connector: unhealthy when it cannot be
// built, its own check when it has one, healthy otherwise.
func (s *Service) healthOf(ctx context.Context, id, typ string) connectors.Health {
	h := connectors.Health{Name: id, Type: typ, Status: connectors.StatusHealthy, Message: "no health check available"}
	b, err := s.current(ctx)
	if err != nil {
		h.Status, h.Message = connectors.StatusUnhealthy, "configuration unreadable"
		return h
	}
	if err := b.failed[id]; err != nil {
		h.Status, h.Message = connectors.StatusUnhealthy, err.Error()
		return h
	}
	if hc, ok := b.impls[id].(connectors.HealthChecker); ok {
		got := hc.CheckHealth(ctx)
		got.Name, got.Type = id, typ
		return got
	}
	return h
}

// Health reports each action kind in a fixed order, by the connector that
// serves it: a configured one under its id, else the simulated one.
func (s *Service) Health(ctx context.Context) ([]connectors.Health, error) {
	b, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	kinds := []string{connectors.KindEmailGateway, connectors.KindEDR, connectors.KindTicketing,
		connectors.KindNotifier, connectors.KindIdentity}
	out := make([]connectors.Health, 0, len(kinds))
	for _, k := range kinds {
		if id, ok := b.servedBy[k]; ok {
			row, err := s.Store.GetConnectorConfig(ctx, id)
			typ := k
			if err == nil {
				typ = row.VendorType
			}
			out = append(out, s.healthOf(ctx, id, typ))
			continue
		}
		h, _ := b.set.HealthOf(ctx, k)
		out = append(out, h)
	}
	return out, nil
}

// Test proves one connector's configuration with its vendor's harmless
// authenticated call. The simulated id tests the database the simulated
// connectors keep their state in.
func (s *Service) Test(ctx context.Context, id string) (connectors.Health, error) {
	if id == SimulatedID {
		h, _ := s.Simulated.HealthOf(ctx, connectors.KindEDR)
		h.Name, h.Type = SimulatedID, SimulatedID
		return h, nil
	}
	row, err := s.Store.GetConnectorConfig(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		// The health list names the simulated connectors it falls back
		// to (simulated-edr, ...); each can be tested by that name.
		if h, ok := s.Simulated.HealthOf(ctx, id); ok {
			return h, nil
		}
	}
	if err != nil {
		return connectors.Health{}, err
	}
	h := connectors.Health{Name: id, Type: row.VendorType}
	b, err := s.current(ctx)
	if err != nil {
		return connectors.Health{}, err
	}
	if ferr := b.failed[id]; ferr != nil {
		h.Status, h.Message = connectors.StatusUnhealthy, ferr.Error()
		return h, nil
	}
	tester, ok := b.impls[id].(connectors.Tester)
	if !ok {
		h.Status, h.Message = connectors.StatusDegraded, "this connector type offers no test call"
		return h, nil
	}
	if err := tester.Test(ctx); err != nil {
		h.Status, h.Message = connectors.StatusUnhealthy, Explain(err)
		return h, nil
	}
	h.Status, h.Message = connectors.StatusHealthy, "authenticated call succeeded"
	return h, nil
}

// Explain words a failed test. Vendor errors already say what failed
// (vendorhttp's ErrAuth, ErrPermission, ErrNetwork); a bare timeout is
// worded as the network failure it is.
func Explain(err error) string {
	if errors.Is(err, vendorhttp.ErrNetwork) || !errors.Is(err, context.DeadlineExceeded) {
		return err.Error()
	}
	return "network error: the vendor did not answer in time"
}
