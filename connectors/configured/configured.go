// Package configured turns the connector configurations admins store into
// the connectors the worker uses: it validates and seals them on write,
// and builds a connectors.Set (and the threat-intel source) from them on
// use, with every kind no configured connector serves falling back to the
// simulated set, which labels every result as simulated.
package configured

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/internal/ttlcache"
	"github.com/vigil-soc/vigil/outbound"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// SimulatedID is the id under which the built-in simulated connectors are
// listed; it cannot be configured or deleted.
const SimulatedID = "simulated"

// DefaultTimeout bounds each vendor call made through Config.HTTP.
const DefaultTimeout = 30 * time.Second

// RoutableKinds are the kinds a configured connector can be chosen for.
// threat_intel may be served by several connectors at once (their answers
// are combined); every other kind by at most one.
var RoutableKinds = []string{
	connectors.KindEmailGateway, connectors.KindEDR, connectors.KindIdentity,
	connectors.KindTicketing, connectors.KindNotifier, connectors.KindIntel,
}

// Service stores connector configurations and builds connectors from them.
type Service struct {
	Store *store.Store
	// Box seals secrets; nil refuses any write that carries one.
	Box *secrets.Box
	// Policy returns the outbound policy every vendor call obeys.
	Policy func(ctx context.Context) outbound.Policy
	// Limit is handed to vendors as Config.Limit (a shared quota).
	Limit func(ctx context.Context, key string, perMinute int) error
	// Simulated is the fallback set for kinds nothing else serves.
	Simulated connectors.Set
	// SimulatedIntel is the fallback threat-intel source.
	SimulatedIntel intel.Source
	// Timeout bounds each vendor call (DefaultTimeout when zero).
	Timeout time.Duration
	Log     *slog.Logger

	mu    sync.Mutex
	cache *built
	// checked holds cache while it was found current within CheckTTL.
	checked ttlcache.Value[*built]
}

// Input is a write of one connector (PUT /api/connectors/{id}).
type Input struct {
	Type     string            `json:"type"`
	Settings map[string]string `json:"settings"`
	// Secrets are write-only: a name omitted keeps the stored value, ""
	// clears it, anything else replaces it.
	Secrets map[string]string `json:"secrets"`
	// Serves lists the kinds this connector is chosen for; nil means every
	// kind the vendor implements.
	Serves []string `json:"serves"`
}

// ValidationError lists what was wrong with an Input, by field.
type ValidationError struct{ Fields map[string]string }

func (e *ValidationError) Error() string {
	parts := make([]string, 0, len(e.Fields))
	for k, v := range e.Fields {
		parts = append(parts, k+" "+v)
	}
	sort.Strings(parts)
	return "invalid connector: " + strings.Join(parts, "; ")
}

// ConflictError says a kind is already served by another connector.
type ConflictError struct{ Kind, ServedBy string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("kind %s is already served by connector %s; remove it there first", e.Kind, e.ServedBy)
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)

// Put validates, seals and stores a connector, and reports whether it was
// created.
func (s *Service) Put(ctx context.Context, id string, in Input, by string) (View, bool, error) {
	errs := map[string]string{}
	if !idPattern.MatchString(id) || id == SimulatedID {
		errs["id"] = "must be 1-63 lowercase letters, digits, '-' or '_' and not \"simulated\""
	}
	vendor, ok := connectors.LookupVendor(in.Type)
	if !ok {
		errs["type"] = "must be one of: " + strings.Join(vendorTypes(), ", ")
		return View{}, false, &ValidationError{errs}
	}
	var stored *store.ConnectorConfig
	if len(errs) == 0 {
		var err error
		if stored, err = s.Store.GetConnectorConfig(ctx, id); err != nil && err != store.ErrNotFound {
			return View{}, false, err
		}
	}
	oldSecrets, err := s.openStored(stored)
	if err != nil {
		return View{}, false, err
	}
	settings, secretValues := checkFields(vendor, in, oldSecrets, errs)
	serves := in.Serves
	if serves == nil {
		serves = routable(vendor.Kinds)
	}
	checkServes(vendor, serves, errs)
	if len(errs) > 0 {
		return View{}, false, &ValidationError{errs}
	}
	if err := s.checkRouting(ctx, id, serves); err != nil {
		return View{}, false, err
	}
	sealed, err := s.seal(id, secretValues)
	if err != nil {
		return View{}, false, err
	}
	row := &store.ConnectorConfig{ID: id, VendorType: vendor.Type, Settings: store.NewJSON(settings),
		SecretsEncrypted: sealed, Serves: store.NewJSON(serves), CreatedBy: by}
	created, err := s.Store.PutConnectorConfig(ctx, row)
	if err != nil {
		return View{}, false, err
	}
	s.Invalidate()
	return s.view(ctx, *row), created, nil
}

// Delete removes a connector; its kinds fall back to the simulated set.
func (s *Service) Delete(ctx context.Context, id string) error {
	if err := s.Store.DeleteConnectorConfig(ctx, id); err != nil {
		return err
	}
	s.Invalidate()
	return nil
}

// checkFields returns the settings to store and the secrets to seal.
func checkFields(v connectors.Vendor, in Input, old map[string]string, errs map[string]string) (map[string]string, map[string]string) {
	settings, secretValues := map[string]string{}, map[string]string{}
	known := map[string]bool{}
	for _, f := range v.Fields {
		known[f.Name] = true
		if f.Secret {
			val, given := in.Secrets[f.Name]
			if !given {
				val = old[f.Name]
			}
			if val != "" {
				secretValues[f.Name] = val
			}
			if f.Required && val == "" {
				errs["secrets."+f.Name] = "is required"
			}
			if _, misplaced := in.Settings[f.Name]; misplaced {
				errs["settings."+f.Name] = "is a secret; send it in secrets"
			}
			continue
		}
		val := strings.TrimSpace(in.Settings[f.Name])
		if val != "" {
			settings[f.Name] = val
		}
		if f.Required && val == "" && f.Default == "" {
			errs["settings."+f.Name] = "is required"
		}
		if len(val) > 2000 {
			errs["settings."+f.Name] = "is longer than 2000 characters"
		}
	}
	for name := range in.Settings {
		if !known[name] {
			errs["settings."+name] = "is not a field of " + v.Type
		}
	}
	for name := range in.Secrets {
		if !known[name] {
			errs["secrets."+name] = "is not a field of " + v.Type
		}
	}
	return settings, secretValues
}

func checkServes(v connectors.Vendor, serves []string, errs map[string]string) {
	for _, k := range serves {
		if !slices.Contains(v.Kinds, k) || !slices.Contains(RoutableKinds, k) {
			errs["serves"] = fmt.Sprintf("%s cannot serve %q; it serves: %s", v.Type, k, strings.Join(routable(v.Kinds), ", "))
			return
		}
	}
}

// checkRouting refuses a kind another connector already serves.
func (s *Service) checkRouting(ctx context.Context, id string, serves []string) error {
	rows, err := s.Store.ListConnectorConfigs(ctx)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if r.ID == id {
			continue
		}
		for _, k := range serves {
			if k != connectors.KindIntel && slices.Contains(r.Serves.V, k) {
				return &ConflictError{Kind: k, ServedBy: r.ID}
			}
		}
	}
	return nil
}

func routable(kinds []string) []string {
	out := []string{}
	for _, k := range kinds {
		if slices.Contains(RoutableKinds, k) {
			out = append(out, k)
		}
	}
	return out
}

func vendorTypes() []string {
	var out []string
	for _, v := range connectors.Vendors() {
		out = append(out, v.Type)
	}
	return out
}

// seal seals a connector's secrets as one JSON object under its id.
func (s *Service) seal(id string, values map[string]string) (string, error) {
	if len(values) == 0 {
		return "", nil
	}
	if s.Box == nil {
		return "", &ValidationError{map[string]string{"secrets": "cannot be stored: " + secrets.ErrNoKey.Error()}}
	}
	b, err := json.Marshal(values)
	if err != nil {
		return "", err
	}
	return s.Box.Seal(string(b), store.ConnectorSecretContext+id)
}

// openStored unseals a stored connector's secrets (none for nil).
func (s *Service) openStored(row *store.ConnectorConfig) (map[string]string, error) {
	out := map[string]string{}
	if row == nil || row.SecretsEncrypted == "" {
		return out, nil
	}
	plain, err := s.Box.Open(row.SecretsEncrypted, store.ConnectorSecretContext+row.ID)
	if err != nil {
		return nil, fmt.Errorf("open secrets of connector %s: %w", row.ID, err)
	}
	if err := json.Unmarshal([]byte(plain), &out); err != nil {
		return nil, fmt.Errorf("decode secrets of connector %s: %w", row.ID, err)
	}
	return out, nil
}

// config builds the vendor Config of a stored connector, with defaults
// filled and secrets unsealed.
func (s *Service) config(ctx context.Context, row store.ConnectorConfig, v connectors.Vendor) (connectors.Config, error) {
	sec, err := s.openStored(&row)
	if err != nil {
		return connectors.Config{}, err
	}
	settings := map[string]string{}
	for _, f := range v.Fields {
		if !f.Secret && f.Default != "" {
			settings[f.Name] = f.Default
		}
	}
	for k, val := range row.Settings.V {
		settings[k] = val
	}
	return connectors.Config{ID: row.ID, Type: row.VendorType, Settings: settings, Secrets: sec,
		HTTP: s.httpClient(ctx), Limit: s.Limit}, nil
}

// httpClient is the client vendors receive: the outbound policy plus a timeout.
func (s *Service) httpClient(ctx context.Context) *http.Client {
	var pol outbound.Policy
	if s.Policy != nil {
		pol = s.Policy(ctx)
	}
	t := s.Timeout
	if t == 0 {
		t = DefaultTimeout
	}
	return pol.Client(t)
}
