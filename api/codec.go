package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/vigil-soc/vigil/store"
)

// Temporal's remote codec protocol: the Web UI and the CLI post
// {"payloads": [...]} to <endpoint>/encode and <endpoint>/decode, with the
// namespace in X-Namespace; the UI adds the user's cookies when its
// "Include cross-origin credentials" setting is on, or an Authorization
// header when it passes its access token.
const (
	codecEncodePath  = "/codec/encode"
	codecDecodePath  = "/codec/decode"
	codecCORSHeaders = "Content-Type, X-Namespace, Authorization"
)

// CodecEndpoint is the codec endpoint to give the Temporal Web UI and CLI
// (<vigil>/codec); the same routes also answer under /api/codec and
// /api/v1/codec.
const CodecEndpoint = "/codec"

// registerCodec serves the payload codec to the Temporal Web UI's origin
// and to API keys, at /codec and under /api. The UI cannot send Vigil's
// CSRF token, so a cookie-authenticated call must come from the UI's
// origin or Vigil's own instead; the browser enforces the rest through
// CORS.
func (a *routes) registerCodec() {
	s := a.s
	for _, p := range []string{codecEncodePath, codecDecodePath} {
		for _, g := range []*gin.RouterGroup{a.root, a.group, a.v1} {
			g.OPTIONS(p, s.codecCORS, s.codecPreflight)
		}
	}
	before := []gin.HandlerFunc{s.codecCORS}
	for _, c := range []struct {
		route Route
		h     handlerFunc
	}{
		{Route{http.MethodPost, codecEncodePath, store.RoleAnalyst, ScopeWrite, LimitRead, "codec.encode"}, s.codecEncode},
		{Route{http.MethodPost, codecDecodePath, store.RoleAnalyst, ScopeRead, LimitRead, "codec.decode"}, s.codecDecode},
	} {
		a.add(c.route, before, s.checkCodecOrigin, c.h)
		a.root.Handle(c.route.Method, c.route.Path, a.chain(c.route, before, s.checkCodecOrigin, c.h)...)
	}
}

func (s *server) codecOriginAllowed(origin string) bool {
	return origin != "" && strings.EqualFold(origin, s.opts.CodecAllowedOrigin)
}

// codecCORS lets the Temporal UI's origin read the answer, with
// credentials; other origins get no CORS headers, so their pages cannot.
func (s *server) codecCORS(c *gin.Context) {
	if origin := c.GetHeader("Origin"); s.codecOriginAllowed(origin) {
		h := c.Writer.Header()
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		h.Set("Access-Control-Allow-Headers", codecCORSHeaders)
		h.Set("Access-Control-Max-Age", "600")
	}
	c.Writer.Header().Add("Vary", "Origin")
	c.Next()
}

func (s *server) codecPreflight(c *gin.Context) {
	if !s.codecOriginAllowed(c.GetHeader("Origin")) {
		s.abortWithError(c, newError(http.StatusForbidden, CodeForbidden,
			"origin not allowed: the codec answers the Temporal UI at VIGIL_TEMPORAL_UI_URL"))
		return
	}
	c.Status(http.StatusNoContent)
}

// checkCodecOrigin stands in for the CSRF check on the codec routes: a
// session cookie counts only on a request from the Temporal UI's origin
// or from Vigil itself.
func (s *server) checkCodecOrigin(c *gin.Context) {
	p := principal(c)
	if p == nil || p.Session == nil {
		c.Next()
		return
	}
	origin := c.GetHeader("Origin")
	if s.codecOriginAllowed(origin) || (origin != "" && strings.EqualFold(origin, requestOrigin(c))) {
		c.Next()
		return
	}
	s.abortWithError(c, newError(http.StatusForbidden, CodeCSRF,
		"a signed-in codec request must come from the Temporal UI at VIGIL_TEMPORAL_UI_URL"))
}

// requestOrigin is the origin this request was addressed to.
func requestOrigin(c *gin.Context) string {
	scheme := "http"
	if c.Request.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.Request.Host
}

func (s *server) codecEncode(c *gin.Context) (reply, error) {
	return s.runCodec(c, s.opts.PayloadCodec.Encode)
}

func (s *server) codecDecode(c *gin.Context) (reply, error) {
	return s.runCodec(c, s.opts.PayloadCodec.Decode)
}

func (s *server) runCodec(c *gin.Context, apply func([]*commonpb.Payload) ([]*commonpb.Payload, error)) (reply, error) {
	body, err := c.GetRawData()
	if err != nil {
		return reply{}, err
	}
	var in commonpb.Payloads
	if err := protojson.Unmarshal(body, &in); err != nil {
		return reply{}, newError(http.StatusBadRequest, CodeMalformedJSON,
			"body must be {\"payloads\": [...]} as Temporal's codec protocol sends")
	}
	out, err := apply(in.GetPayloads())
	if err != nil {
		return reply{}, &Error{Status: http.StatusBadRequest, Code: CodeBadRequest,
			Message: "payloads could not be processed: " + err.Error()}
	}
	data, err := protojson.Marshal(&commonpb.Payloads{Payloads: out})
	if err != nil {
		return reply{}, err
	}
	return reply{status: http.StatusOK, contentType: "application/json", data: data}, nil
}
