package api

import (
	"context"
	"errors"
	"regexp"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/store"
)

var dataSourceName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

type dataSourceRequest struct {
	Name        *string           `json:"name"`
	Kind        string            `json:"kind"`
	Description string            `json:"description"`
	Config      map[string]any    `json:"config"`
	Credentials map[string]string `json:"credentials"`
}

// dataSourceView never carries the credentials.
type dataSourceView struct {
	Name           string         `json:"name"`
	Kind           string         `json:"kind"`
	Description    string         `json:"description"`
	Config         map[string]any `json:"config"`
	CredentialsSet bool           `json:"credentials_set"`
	CreatedAt      time.Time      `json:"created_at"`
	UpdatedAt      time.Time      `json:"updated_at"`
}

func viewDataSource(d *store.DataSource) dataSourceView {
	return dataSourceView{Name: d.Name, Kind: d.Kind, Description: d.Description, Config: d.Config.V,
		CredentialsSet: d.CredentialsEncrypted != "", CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC()}
}

// putDataSource creates (POST) or replaces (PUT) a source; a PUT without
// credentials keeps the stored ones.
func (s *server) putDataSource(c *gin.Context) (reply, error) {
	var req dataSourceRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	name := c.Param("name")
	if name == "" {
		name = requiredText(bad, "name", req.Name, 64)
	}
	if name != "" && !dataSourceName.MatchString(name) {
		bad["name"] = "must be 1-64 lower-case letters, digits, '-' or '_'"
	}
	if err := hunt.CheckEnum(req.Kind, datasource.Kinds); err != nil {
		bad["kind"] = err.Error()
	}
	d := &store.DataSource{Name: name, Kind: req.Kind, Description: req.Description, Config: store.NewJSON(req.Config),
		CreatedBy: principal(c).User.Username}
	existing, err := s.store.GetDataSource(c, name)
	switch {
	case err == nil && c.Request.Method == "POST":
		return reply{}, newError(409, CodeConflict, "data source "+name+" exists; PUT replaces it")
	case err == nil:
		d.CreatedAt, d.CreatedBy, d.CredentialsEncrypted = existing.CreatedAt, existing.CreatedBy, existing.CredentialsEncrypted
	case errors.Is(err, store.ErrNotFound) && c.Request.Method == "PUT":
		return reply{}, notFound("data source")
	case !errors.Is(err, store.ErrNotFound):
		return reply{}, err
	}
	if len(req.Credentials) > 0 {
		sealed, err := hunt.SealCredentials(s.opts.Secrets, req.Credentials)
		if err != nil {
			bad["credentials"] = err.Error()
		}
		d.CredentialsEncrypted = sealed
	}
	if len(bad) == 0 {
		if err := s.checkSource(c, d); err != nil {
			var ce *datasource.ConfigError
			if !errors.As(err, &ce) {
				return reply{}, err
			}
			bad["config."+ce.Field] = ce.Message
		}
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	if err := s.store.PutDataSource(c, d); err != nil {
		return reply{}, err
	}
	setAuditTarget(c, d.Name)
	if existing == nil {
		return created(viewDataSource(d)), nil
	}
	return ok(viewDataSource(d)), nil
}

// checkSource builds the source to validate its settings, and checks an
// HTTP source's address against the outbound policy.
func (s *server) checkSource(ctx context.Context, d *store.DataSource) error {
	cfg, err := hunt.SourceConfig(d, s.opts.Secrets)
	if err != nil {
		return err
	}
	opts := s.sourceOptions()
	src, err := datasource.Open(cfg, opts)
	if err != nil {
		return err
	}
	if err := src.Close(); err != nil {
		return err
	}
	return datasource.CheckOutbound(ctx, cfg, opts)
}

func (s *server) sourceOptions() datasource.Options {
	return hunt.SourceOptions(s.store, s.opts.StorePaths)
}

func (s *server) listDataSources(c *gin.Context) (reply, error) {
	ds, err := s.store.ListDataSources(c)
	if err != nil {
		return reply{}, err
	}
	out := make([]dataSourceView, len(ds))
	for i := range ds {
		out[i] = viewDataSource(&ds[i])
	}
	return ok(out), nil
}

func (s *server) getDataSource(c *gin.Context) (reply, error) {
	d, err := s.store.GetDataSource(c, c.Param("name"))
	if err != nil {
		return reply{}, err
	}
	return ok(viewDataSource(d)), nil
}

func (s *server) deleteDataSource(c *gin.Context) (reply, error) {
	setAuditTarget(c, c.Param("name"))
	if err := s.store.DeleteDataSource(c, c.Param("name")); err != nil {
		return reply{}, err
	}
	return noContent(), nil
}

// testDataSource runs the source's own check; the answer says whether it
// answered, and why not.
func (s *server) testDataSource(c *gin.Context) (reply, error) {
	d, err := s.store.GetDataSource(c, c.Param("name"))
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, d.Name)
	cfg, err := hunt.SourceConfig(d, s.opts.Secrets)
	if err != nil {
		return reply{}, err
	}
	src, err := datasource.Open(cfg, s.sourceOptions())
	if err != nil {
		return ok(gin.H{"name": d.Name, "ok": false, "error": err.Error()}), nil
	}
	defer func() { _ = src.Close() }()
	ctx, cancel := context.WithTimeout(c, 20*time.Second)
	defer cancel()
	start := time.Now()
	if err := src.Test(ctx); err != nil {
		return ok(gin.H{"name": d.Name, "ok": false, "error": err.Error()}), nil
	}
	return ok(gin.H{"name": d.Name, "ok": true, "duration_ms": time.Since(start).Milliseconds()}), nil
}
