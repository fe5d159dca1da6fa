// Package reqid carries a request's id through its context and into every
// log line written with that context.
package reqid

import (
	"context"
	"log/slog"
	"regexp"

	"github.com/google/uuid"
)

// Header is the HTTP header that carries the id in and out.
const Header = "X-Request-ID"

type ctxKey struct{}

// sane is what a caller-supplied id may look like: short, printable, no
// spaces or quotes, so it can go into logs and headers as it is.
var sane = regexp.MustCompile(`^[A-Za-z0-9._:/+=-]{1,128}$`)

// FromHeader returns the caller's id when it is sane, else a new one.
func FromHeader(v string) string {
	if sane.MatchString(v) {
		return v
	}
	return uuid.NewString()
}

// With returns ctx carrying id.
func With(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// From returns the id ctx carries, or "".
func From(ctx context.Context) string {
	if ctx == nil {
		return ""
	}
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// Handler adds request_id to every record logged with a context that
// carries one.
type Handler struct{ slog.Handler }

// Handle implements slog.Handler.
func (h Handler) Handle(ctx context.Context, r slog.Record) error {
	if id := From(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return Handler{h.Handler.WithAttrs(attrs)}
}

// WithGroup implements slog.Handler.
func (h Handler) WithGroup(name string) slog.Handler { return Handler{h.Handler.WithGroup(name)} }
