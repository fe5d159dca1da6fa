package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/configured"
	"github.com/vigil-soc/vigil/store"
)

// registerConnectors adds the connector configuration routes: everyone
// reads, admins write; secrets are write-only.
func registerConnectors(a *routes, s *server) {
	const (
		viewer, admin       = store.RoleViewer, store.RoleAdmin
		get, post, put, del = http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete
	)
	a.handle(Route{get, "/connectors/health", viewer, ScopeRead, LimitRead, ""}, s.connectorHealth)
	// Testing calls the vendor with the stored credentials: admins only.
	a.handle(Route{post, "/connectors/:id/test", admin, ScopeAdmin, LimitWrite, "connector.test"}, s.testConnector)
	if s.opts.ConnectorConfigs == nil {
		return
	}
	a.handle(Route{get, "/connectors", viewer, ScopeRead, LimitRead, ""}, s.listConnectors)
	a.handle(Route{get, "/connectors/vendors", viewer, ScopeRead, LimitRead, ""}, s.listConnectorVendors)
	a.handle(Route{get, "/connectors/:id", viewer, ScopeRead, LimitRead, ""}, s.getConnector)
	a.handle(Route{put, "/connectors/:id", admin, ScopeAdmin, LimitWrite, "connector.update"}, s.putConnector)
	a.handle(Route{del, "/connectors/:id", admin, ScopeAdmin, LimitWrite, "connector.delete"}, s.deleteConnector)
}

func (s *server) listConnectors(c *gin.Context) (reply, error) {
	views, err := s.opts.ConnectorConfigs.List(c)
	if err != nil {
		return reply{}, err
	}
	return reply{status: http.StatusOK, raw: true, body: gin.H{"connectors": views}}, nil
}

// listConnectorVendors lists the connector types this build offers, with
// the fields their configuration takes (the dashboard's form).
func (s *server) listConnectorVendors(*gin.Context) (reply, error) {
	return reply{status: http.StatusOK, raw: true, body: gin.H{"vendors": connectors.Vendors()}}, nil
}

func (s *server) getConnector(c *gin.Context) (reply, error) {
	v, err := s.opts.ConnectorConfigs.Get(c, c.Param("id"))
	if err != nil {
		return reply{}, connectorError(err)
	}
	return ok(v), nil
}

func (s *server) putConnector(c *gin.Context) (reply, error) {
	var in configured.Input
	if err := decodeJSON(c, &in, false); err != nil {
		return reply{}, err
	}
	setAuditTarget(c, c.Param("id"))
	v, isNew, err := s.opts.ConnectorConfigs.Put(c, c.Param("id"), in, principal(c).User.Username)
	if err != nil {
		return reply{}, connectorError(err)
	}
	if isNew {
		return created(v), nil
	}
	return ok(v), nil
}

func (s *server) deleteConnector(c *gin.Context) (reply, error) {
	setAuditTarget(c, c.Param("id"))
	if err := s.opts.ConnectorConfigs.Delete(c, c.Param("id")); err != nil {
		return reply{}, connectorError(err)
	}
	return noContent(), nil
}

// testConnector performs one connector's harmless authenticated call and
// reports the outcome as its health; the status is 200 either way, the
// body says what failed.
func (s *server) testConnector(c *gin.Context) (reply, error) {
	if s.opts.ConnectorConfigs == nil {
		h, found := s.connectors.HealthOf(c, c.Param("id"))
		if !found {
			return reply{}, notFound("connector")
		}
		return reply{status: http.StatusOK, raw: true, body: h}, nil
	}
	h, err := s.opts.ConnectorConfigs.Test(c, c.Param("id"))
	if err != nil {
		return reply{}, connectorError(err)
	}
	return reply{status: http.StatusOK, raw: true, body: h}, nil
}

func connectorError(err error) error {
	var verr *configured.ValidationError
	var conflict *configured.ConflictError
	switch {
	case errors.As(err, &verr):
		return validationError(verr.Fields)
	case errors.As(err, &conflict):
		return newError(http.StatusConflict, CodeConflict, conflict.Error())
	}
	if toAPIError(err).Code == CodeNotFound {
		return notFound("connector")
	}
	return err
}

// currentConnectors returns the configured connectors when they are
// managed here, else the fixed set.
func (s *server) currentConnectors(ctx context.Context) (connectors.Set, error) {
	if s.opts.ConnectorConfigs != nil {
		return s.opts.ConnectorConfigs.Set(ctx)
	}
	return s.connectors, nil
}
