package huntact

import (
	"sync"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// sourceCache keeps the data sources queries open between runs, so a SQL
// source's connection pool (and its warm connections) serves every query
// of every run instead of one connection set up per query. An entry is
// opened again when the stored source changed.
type sourceCache struct {
	mu sync.Mutex
	m  map[string]cachedSource
}

type cachedSource struct {
	version string
	src     datasource.Source
}

// version tells two stored states of a source apart: any write moves
// updated_at, and the sealed credentials change with a key rotation.
func version(d *store.DataSource) string {
	return d.UpdatedAt.UTC().String() + "\x00" + d.CredentialsEncrypted
}

// get answers the open source for d, opening it when absent or stale; a
// stale one is closed, which waits for its running queries to end.
func (c *sourceCache) get(d *store.DataSource, box *secrets.Box, opts datasource.Options) (datasource.Source, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := version(d)
	if cur, ok := c.m[d.Name]; ok {
		if cur.version == v {
			return cur.src, nil
		}
		go func() { _ = cur.src.Close() }()
		delete(c.m, d.Name)
	}
	cfg, err := hunt.SourceConfig(d, box)
	if err != nil {
		return nil, err
	}
	src, err := datasource.Open(cfg, opts)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]cachedSource{}
	}
	c.m[d.Name] = cachedSource{version: v, src: src}
	return src, nil
}
