package connectors

import (
	"context"
	"sort"
	"strings"

	"github.com/vigil-soc/vigil/actions"
)

// Set holds one connector of each kind. A nil field means that kind of tool
// is not configured: actions needing it fail permanently.
type Set struct {
	Email     EmailGateway
	EDR       EDR
	Ticketing Ticketing
	Notifier  Notifier
	Identity  Identity
	// HTTP performs the generic http_request action.
	HTTP HTTPRequester
}

// HTTPRequester performs the generic http_request action with its
// validated parameters (method, url, headers, body, credential,
// expected_status, output).
type HTTPRequester interface {
	Request(ctx context.Context, key string, params map[string]any) (Result, error)
}

// Execute runs actionType with params on the connector that performs it;
// key is the idempotency key (the action id). Parameters are validated (and
// defaults filled) again here so a caller holding a stale or hand-built
// parameter map cannot reach a connector with bad input; invalid
// parameters, unknown types and missing connectors are permanent errors.
func (s Set) Execute(ctx context.Context, actionType, key string, params map[string]any) (Result, error) {
	typ, ok := actions.Lookup(actionType)
	if !ok {
		return Result{}, Permanentf("unknown action type %q", actionType)
	}
	if key == "" {
		return Result{}, Permanentf("%s: empty idempotency key", actionType)
	}
	p, errs := typ.Validate(params)
	if errs != nil {
		return Result{}, Permanentf("invalid parameters for %s: %s", actionType, describe(errs))
	}
	str := func(name string) string { v, _ := p[name].(string); return v }
	if err := s.require(typ.Connector); err != nil {
		return Result{}, err
	}
	switch actionType {
	case actions.QuarantineEmail:
		return s.Email.Quarantine(ctx, key, str("message_id"), str("reason"))
	case actions.ReleaseEmail:
		return s.Email.Release(ctx, key, str("message_id"), str("reason"))
	case actions.BlockSender:
		return s.Email.BlockSender(ctx, key, str("sender"), str("reason"))
	case actions.UnblockSender:
		return s.Email.UnblockSender(ctx, key, str("sender"), str("reason"))
	case actions.IsolateHost:
		return s.EDR.Isolate(ctx, key, str("host_id"), str("reason"))
	case actions.UnisolateHost:
		return s.EDR.Unisolate(ctx, key, str("host_id"), str("reason"))
	case actions.ScanHost:
		return s.EDR.StartScan(ctx, key, str("host_id"), str("scan_type"))
	case actions.CreateTicket:
		return s.Ticketing.CreateTicket(ctx, key, Ticket{
			Title: str("title"), Description: str("description"), Priority: str("priority"),
		})
	case actions.NotifyUser:
		return s.Notifier.NotifyUser(ctx, key, str("user"), str("message"), str("channel"))
	case actions.DisableUser:
		return s.Identity.DisableUser(ctx, key, str("user"), str("reason"))
	case actions.EnableUser:
		return s.Identity.EnableUser(ctx, key, str("user"), str("reason"))
	case actions.RevokeSessions:
		return s.Identity.RevokeSessions(ctx, key, str("user"), str("reason"))
	case actions.ResetMFA:
		return s.Identity.ResetMFA(ctx, key, str("user"), str("reason"))
	case actions.HTTPRequest:
		return s.HTTP.Request(ctx, key, p)
	}
	// Reached only when the catalog gains a type this switch does not know.
	return Result{}, Permanentf("action type %s has no connector operation", actionType)
}

// require fails permanently when the connector of the given kind is unset.
// It reads the same member list as Health, plus the HTTP executor, which
// has no health of its own.
func (s Set) require(kind string) error {
	for _, m := range append(s.members(), member{actions.ConnectorHTTP, s.HTTP}) {
		if m.kind == kind && m.impl != nil {
			return nil
		}
	}
	return Permanentf("no %s connector is configured", kind)
}

// describe renders validation errors in a stable order.
func describe(errs map[string]string) string {
	parts := make([]string, 0, len(errs))
	for field, msg := range errs {
		parts = append(parts, field+" "+msg)
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}
