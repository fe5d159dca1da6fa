package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// reply is a successful answer: a status and a value put under "data"
// (or written as is when raw).
type reply struct {
	status      int
	body        any
	raw         bool
	location    string
	contentType string // with data: a non-JSON body
	data        []byte
}

func ok(v any) reply       { return reply{status: http.StatusOK, body: v} }
func created(v any) reply  { return reply{status: http.StatusCreated, body: v} }
func accepted(v any) reply { return reply{status: http.StatusAccepted, body: v} }
func noContent() reply     { return reply{status: http.StatusNoContent} }

// redirect answers a browser form post with 303 See Other.
func redirect(to string) reply { return reply{status: http.StatusSeeOther, location: to} }

// handlerFunc is the shape of every API handler: data or an error, never a
// direct write.
type handlerFunc func(c *gin.Context) (reply, error)

// wrap adapts a handlerFunc to gin, writing the reply or the error envelope.
func (s *server) wrap(h handlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		r, err := h(c)
		if err != nil {
			s.abortWithError(c, err)
			return
		}
		switch {
		case r.contentType != "":
			c.Data(r.status, r.contentType, r.data)
		case r.location != "":
			c.Redirect(r.status, r.location)
		case r.status == http.StatusNoContent:
			c.Status(http.StatusNoContent)
		case r.raw:
			c.JSON(r.status, r.body)
		default:
			c.JSON(r.status, gin.H{"data": r.body})
		}
	}
}

// abortWithError writes the envelope, logging client errors at debug and
// server errors at error with the underlying cause.
func (s *server) abortWithError(c *gin.Context, err error) {
	apiErr := toAPIError(err)
	level := slog.LevelDebug
	if apiErr.Status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(c.Request.Context(), level, "request failed",
		"method", c.Request.Method, "path", c.FullPath(), "status", apiErr.Status,
		"code", apiErr.Code, "err", err)
	c.AbortWithStatusJSON(apiErr.Status, envelope{Error: envelopeBody{
		Code: apiErr.Code, Message: apiErr.Message, Details: apiErr.Details,
	}})
}

// decodeJSON reads a JSON object body into dst. Unknown fields and wrong
// types are validation errors naming the field; broken JSON is a 400; an
// empty body is allowed only when optional is set.
func decodeJSON(c *gin.Context, dst any, optional bool) error {
	body, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return err
		}
		return newError(http.StatusBadRequest, CodeBadRequest, "could not read request body")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if optional {
			return nil
		}
		return newError(http.StatusBadRequest, CodeMalformedJSON, "request body must be a JSON object")
	}
	if hasNUL(body) {
		return errNUL
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return newError(http.StatusBadRequest, CodeMalformedJSON, "request body holds more than one JSON value")
	}
	return nil
}

func decodeError(err error) error {
	var (
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syntaxErr):
		return newError(http.StatusBadRequest, CodeMalformedJSON,
			fmt.Sprintf("malformed JSON at byte %d: %v", syntaxErr.Offset, syntaxErr))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return newError(http.StatusBadRequest, CodeMalformedJSON, "malformed JSON: unexpected end of input")
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return newError(http.StatusBadRequest, CodeMalformedJSON, "request body must be a JSON object")
		}
		return validationError(map[string]string{typeErr.Field: "must be of type " + jsonTypeName(typeErr.Type.Kind().String())})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return validationError(map[string]string{field: "unknown field"})
	}
	return newError(http.StatusBadRequest, CodeMalformedJSON, "malformed JSON: "+err.Error())
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "map", "struct":
		return "object"
	case "slice", "array":
		return "array"
	case "int", "int64", "int32", "float64", "float32", "uint", "uint64":
		return "number"
	}
	return kind
}

// errNUL refuses text with NUL characters: PostgreSQL cannot store them,
// and no legitimate alert or incident needs one.
var errNUL = &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation,
	Message: "the body contains a NUL character (\\u0000), which cannot be stored"}

func hasNUL(body []byte) bool {
	return bytes.Contains(body, []byte(`\u0000`)) || bytes.IndexByte(body, 0) >= 0
}
