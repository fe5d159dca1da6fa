package api

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/store"
)

// CodeInvalidToken answers a delivery whose bearer token, basic
// credentials or URL token do not match the source's (401).
const CodeInvalidToken = "invalid_token"

// tokenBytes is the entropy of a generated source token: 32 random bytes,
// 43 characters of URL-safe base64, so it can stand in a path as is.
const tokenBytes = 32

// newToken returns a fresh random token and the hash the store keeps.
func newToken() (token, hash string) {
	b := make([]byte, tokenBytes)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, tokenHash(token)
}

// tokenHash is the SHA-256 of a token, hex. A token has 256 bits of
// entropy, so a plain hash is as good as a slow one and costs nothing per
// delivery.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// tokenMatches compares a presented token with the source's current token
// and, during a rotation window, the previous one, in constant time.
func tokenMatches(src *store.WebhookSource, presented string, now time.Time) bool {
	if presented == "" || src.TokenHash == "" {
		return false
	}
	got := []byte(tokenHash(presented))
	ok := subtle.ConstantTimeCompare(got, []byte(src.TokenHash)) == 1
	if src.PreviousTokenHash != "" && src.PreviousTokenExpiresAt != nil && now.Before(*src.PreviousTokenExpiresAt) {
		ok = subtle.ConstantTimeCompare(got, []byte(src.PreviousTokenHash)) == 1 || ok
	}
	return ok
}

// checkToken authenticates a delivery to a source of a token mode from
// the request alone, before its body is read. pathToken is the path's
// token segment, "" on the plain intake path; a token in the path is
// only accepted by url_token sources, since paths end up in logs.
func checkToken(c *gin.Context, src *store.WebhookSource, pathToken string) error {
	now := time.Now()
	switch src.AuthMode {
	case store.AuthURLToken:
		if tokenMatches(src, pathToken, now) {
			return nil
		}
		return newError(http.StatusUnauthorized, CodeInvalidToken,
			"post to /api/webhooks/"+src.Source+"/<token> with the token shown when the source was registered or its token rotated")
	case store.AuthBearer:
		scheme, token, _ := strings.Cut(c.GetHeader("Authorization"), " ")
		if pathToken == "" && strings.EqualFold(scheme, "Bearer") && tokenMatches(src, strings.TrimSpace(token), now) {
			return nil
		}
		c.Header("WWW-Authenticate", `Bearer realm="vigil webhook `+src.Source+`"`)
		return newError(http.StatusUnauthorized, CodeInvalidToken, "Authorization must be \"Bearer <the source's token>\"")
	case store.AuthBasic:
		user, pass, ok := c.Request.BasicAuth()
		userOK := subtle.ConstantTimeCompare([]byte(user), []byte(src.BasicUsername)) == 1
		if pathToken == "" && ok && tokenMatches(src, pass, now) && userOK {
			return nil
		}
		c.Header("WWW-Authenticate", `Basic realm="vigil webhook `+src.Source+`"`)
		return newError(http.StatusUnauthorized, CodeInvalidToken,
			"Authorization must be Basic with the source's user name and its token as the password")
	}
	return newError(http.StatusUnauthorized, CodeInvalidToken, "this source does not take tokens")
}
