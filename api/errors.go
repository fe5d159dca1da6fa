package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/vigil-soc/vigil/store"
)

// Error codes Vigil returns in the error envelope.
const (
	CodeBadRequest         = "bad_request"
	CodeMalformedJSON      = "malformed_json"
	CodeUnauthorized       = "unauthorized"
	CodeForbidden          = "forbidden"
	CodeNotFound           = "not_found"
	CodeMethodNotAllowed   = "method_not_allowed"
	CodeConflict           = "conflict"
	CodeTooLarge           = "request_too_large"
	CodeValidation         = "validation_error"
	CodeInternal           = "internal_error"
	CodeUnavailable        = "service_unavailable"
	CodeTriageFailed       = "triage_failed"
	CodeInsufficientScope  = "insufficient_scope"
	CodeCSRF               = "csrf_failed"
	CodeRateLimited        = "rate_limited"
	CodeLastAdmin          = "last_admin"
	CodeInvalidCredentials = "invalid_credentials"
)

// Error is an API error: it carries its HTTP status and renders as the
// envelope {error:{code,message,details}}.
type Error struct {
	Status  int
	Code    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

type envelope struct {
	Error envelopeBody `json:"error"`
}

type envelopeBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func newError(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

func notFound(what string) *Error {
	return newError(http.StatusNotFound, CodeNotFound, what+" not found")
}

// validationError reports one message per offending field or parameter.
func validationError(details map[string]string) *Error {
	d := make(map[string]any, len(details))
	for k, v := range details {
		d[k] = v
	}
	return &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation,
		Message: "request failed validation", Details: d}
}

// toAPIError maps any error to the envelope it is answered with; errors
// that are not *Error and not a store sentinel are internal.
func toAPIError(err error) *Error {
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return apiErr
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return newError(http.StatusRequestEntityTooLarge, CodeTooLarge,
			fmt.Sprintf("request body exceeds %d bytes", tooLarge.Limit))
	case errors.Is(err, store.ErrNotFound):
		return notFound("resource")
	case errors.Is(err, store.ErrConflict):
		return newError(http.StatusConflict, CodeConflict, "resource already exists")
	case errors.Is(err, store.ErrLastAdmin):
		return newError(http.StatusConflict, CodeLastAdmin, store.ErrLastAdmin.Error())
	case errors.Is(err, store.ErrUnauthenticated):
		return newError(http.StatusUnauthorized, CodeUnauthorized, "missing, unknown, revoked or expired API key")
	}
	return newError(http.StatusInternalServerError, CodeInternal, "internal server error")
}
