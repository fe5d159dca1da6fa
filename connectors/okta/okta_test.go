package okta

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

const (
	userID    = "00ub0oNGTSWTBKOLGLNR"
	userLogin = "isaac.brock@example.com"
)

func connect(t *testing.T, p *orgPeer, token string) *Org {
	t.Helper()
	return vendortest.Build[*Org](t, connectors.Config{ID: "okta-test", Type: Type,
		Settings: map[string]string{"base_url": p.srv.URL},
		Secrets:  map[string]string{"api_token": token}})
}

func TestSuspendAndUnsuspendAreIdempotent(t *testing.T) {
	p := newOrgPeer(t)
	p.addUser(userID, userLogin, oktaActive)
	o := connect(t, p, p.token)
	ctx := context.Background()
	for i, want := range []string{"suspended", "already suspended"} {
		res, err := o.DisableUser(ctx, "act-1", userLogin, "impossible travel")
		if err != nil {
			t.Fatal(err)
		}
		if res.Message != "user "+userLogin+" "+want || res.Output["status"] != connectors.UserDisabled || res.Output["user_id"] != userID {
			t.Fatalf("disable #%d: %+v", i+1, res)
		}
	}
	for i := 0; i < 2; i++ {
		if res, err := o.EnableUser(ctx, "act-2", userID, ""); err != nil || res.Output["status"] != connectors.UserEnabled {
			t.Fatalf("enable #%d: %+v, %v", i+1, res, err)
		}
	}
	if p.count("suspend") != 1 || p.count("unsuspend") != 1 {
		t.Fatalf("suspend sent %d times, unsuspend %d; want 1 each", p.count("suspend"), p.count("unsuspend"))
	}
}

func TestSuspendRefusesAUserNotActive(t *testing.T) {
	p := newOrgPeer(t)
	p.addUser(userID, userLogin, "LOCKED_OUT")
	o := connect(t, p, p.token)
	_, err := o.DisableUser(context.Background(), "k", userID, "")
	if !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "LOCKED_OUT") || p.count("suspend") != 0 {
		t.Fatalf("err = %v", err)
	}
}

func TestRevokeSessionsIncludesOAuthTokens(t *testing.T) {
	p := newOrgPeer(t)
	p.addUser(userID, userLogin, oktaActive)
	o := connect(t, p, p.token)
	if _, err := o.RevokeSessions(context.Background(), "act-3", userLogin, ""); err != nil {
		t.Fatal(err)
	}
	if p.count("sessions") != 1 || p.count("tokens") != 1 {
		t.Fatalf("sessions cleared %d times, with tokens %d", p.count("sessions"), p.count("tokens"))
	}
}

func TestResetFactorsOnlyWhenEnrolled(t *testing.T) {
	p := newOrgPeer(t)
	p.addUser(userID, userLogin, oktaActive, factor{FactorType: "push", Provider: "OKTA"}, factor{FactorType: "webauthn", Provider: "FIDO"})
	o := connect(t, p, p.token)
	res, err := o.ResetMFA(context.Background(), "act-4", userLogin, "")
	if err != nil || !reflect.DeepEqual(res.Output["reset_factors"], []string{"fido:webauthn", "okta:push"}) {
		t.Fatalf("reset = %+v, %v", res, err)
	}
	again, err := o.ResetMFA(context.Background(), "act-4", userLogin, "")
	if err != nil || !strings.Contains(again.Message, "no enrolled factors") || p.count("reset_factors") != 1 {
		t.Fatalf("repeat = %+v, %v (%d resets)", again, err, p.count("reset_factors"))
	}
}

func TestUnknownUserIsNotFound(t *testing.T) {
	p := newOrgPeer(t)
	o := connect(t, p, p.token)
	_, err := o.DisableUser(context.Background(), "k", "nobody@example.com", "")
	if !errors.Is(err, vendorhttp.ErrNotFound) || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "Resource not found") {
		t.Fatalf("err = %v", err)
	}
}

func TestWrongTokenFailsOnceAsAuth(t *testing.T) {
	p := newOrgPeer(t)
	p.addUser(userID, userLogin, oktaActive)
	o := connect(t, p, "wrong-token")
	_, err := o.DisableUser(context.Background(), "k", userID, "")
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) ||
		!strings.Contains(err.Error(), "Invalid token provided") || strings.Contains(err.Error(), "wrong-token") {
		t.Fatalf("err = %v", err)
	}
	p.mu.Lock()
	n := p.requests
	p.mu.Unlock()
	if n != 1 {
		t.Fatalf("requests = %d, want 1", n)
	}
}

func TestMissingPermissionIsPermission(t *testing.T) {
	p := newOrgPeer(t)
	p.addUser(userID, userLogin, oktaActive, factor{FactorType: "sms", Provider: "OKTA"})
	p.grant("okta.users.manage", false)
	o := connect(t, p, p.token)
	_, err := o.ResetMFA(context.Background(), "k", userID, "")
	if !errors.Is(err, vendorhttp.ErrPermission) || !strings.Contains(err.Error(), "do not have permission") {
		t.Fatalf("err = %v", err)
	}
}

func TestRateLimitIsRetriedAndTest(t *testing.T) {
	p := newOrgPeer(t)
	p.throttle = 1
	o := connect(t, p, p.token)
	if err := o.Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	p.grant("okta.users.read", false)
	if err := o.Test(context.Background()); !errors.Is(err, vendorhttp.ErrPermission) {
		t.Fatalf("Test without read: %v", err)
	}
}
