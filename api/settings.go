package api

import (
	"errors"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/settings"
)

func (s *server) listSettings(c *gin.Context) (reply, error) {
	views, err := s.settings.List(c)
	if err != nil {
		return reply{}, err
	}
	return ok(views), nil
}

func (s *server) getSetting(c *gin.Context) (reply, error) {
	v, err := s.settings.Get(c, c.Param("key"))
	if err != nil {
		return reply{}, settingError(err)
	}
	return ok(v), nil
}

// putSetting replaces one setting after validating it against its shape.
// Secrets inside are encrypted before storage and never echoed back.
func (s *server) putSetting(c *gin.Context) (reply, error) {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, c.Param("key"))
	v, err := s.settings.Put(c, c.Param("key"), body, principal(c).User.Username)
	if err != nil {
		return reply{}, settingError(err)
	}
	if c.Param("key") == settings.KeyRateLimits {
		s.limiter.invalidate()
	}
	return ok(v), nil
}

func settingError(err error) error {
	var verr *settings.ValidationError
	switch {
	case errors.Is(err, settings.ErrUnknownKey):
		return newError(http.StatusNotFound, CodeNotFound, "unknown setting; known settings: general, rate_limits, llm")
	case errors.As(err, &verr):
		return validationError(verr.Fields)
	}
	return err
}
