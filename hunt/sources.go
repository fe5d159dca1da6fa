// Package hunt holds the rules of threat hunting shared by the API, the
// workflows' activities and the command line: data sources as stored,
// hunt validation, findings and their fingerprints.
package hunt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/outbound"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// ErrNoSecrets refuses credentials when no secret key is configured.
var ErrNoSecrets = errors.New("credentials need VIGIL_SECRET_KEY to be sealed")

// SealCredentials seals a source's credentials (a JSON object of strings)
// with the box; no credentials give an empty string.
func SealCredentials(box *secrets.Box, creds map[string]string) (string, error) {
	if len(creds) == 0 {
		return "", nil
	}
	if box == nil {
		return "", ErrNoSecrets
	}
	b, err := json.Marshal(creds)
	if err != nil {
		return "", err
	}
	return box.Seal(string(b), secrets.ContextDataSourceCredentials)
}

// SourceConfig opens a stored source's credentials and returns the config
// to build it from.
func SourceConfig(d *store.DataSource, box *secrets.Box) (datasource.Config, error) {
	cfg := datasource.Config{Name: d.Name, Kind: d.Kind, Settings: d.Config.V}
	if d.CredentialsEncrypted == "" {
		return cfg, nil
	}
	if box == nil {
		return cfg, ErrNoSecrets
	}
	plain, err := box.Open(d.CredentialsEncrypted, secrets.ContextDataSourceCredentials)
	if err != nil {
		return cfg, fmt.Errorf("open credentials of data source %s: %w", d.Name, err)
	}
	if err := json.Unmarshal([]byte(plain), &cfg.Credentials); err != nil {
		return cfg, fmt.Errorf("credentials of data source %s: %w", d.Name, err)
	}
	return cfg, nil
}

// SourceOptions are the options every data source of this Vigil opens
// with: Vigil's own database files refused as SQLite sources, and HTTP
// sources held to the outbound policy stored in the settings (the one
// notification channels obey), read at each call unless the caller pins
// one (hunt runs read it once per run: datasource.WithOutbound).
func SourceOptions(st *store.Store, storePaths []string) datasource.Options {
	return datasource.Options{StorePaths: storePaths, Outbound: outbound.FromStore(st)}
}

// StoredKinds answers the kind of a data source stored in st by its name,
// "" when there is none: the kindOf of PlanWith for a stored hunt.
func StoredKinds(ctx context.Context, st *store.Store) func(name string) string {
	return func(name string) string {
		d, err := st.GetDataSource(ctx, name)
		if err != nil {
			return ""
		}
		return d.Kind
	}
}
