package entra

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/connectors/vendortest"
)

const (
	userID  = "87d349ed-44d7-43e1-9a83-5f2406dee5bd"
	userUPN = "adele.vance@contoso.com"
)

func connect(t *testing.T, p *graphPeer, secret string) *Directory {
	t.Helper()
	return vendortest.Build[*Directory](t, connectors.Config{ID: "entra-test", Type: Type,
		Settings: map[string]string{"graph_url": p.srv.URL, "login_url": p.srv.URL, "tenant_id": p.tenant, "client_id": "app-1"},
		Secrets:  map[string]string{"client_secret": secret}})
}

func pm(typ, id string) peerMethod {
	return peerMethod{method: method{Type: "#microsoft.graph." + typ + "AuthenticationMethod", ID: id}}
}

func TestDisableAndEnableAreIdempotent(t *testing.T) {
	p := newGraphPeer(t)
	p.addUser(userID, userUPN)
	d := connect(t, p, p.secret)
	ctx := context.Background()
	for i, want := range []string{"disabled", "already disabled"} {
		res, err := d.DisableUser(ctx, "act-1", userUPN, "impossible travel")
		if err != nil {
			t.Fatal(err)
		}
		if res.Message != "user "+userUPN+" "+want || res.Output["status"] != connectors.UserDisabled || res.Output["user_id"] != userID {
			t.Fatalf("disable #%d: %+v", i+1, res)
		}
	}
	for i := 0; i < 2; i++ {
		if res, err := d.EnableUser(ctx, "act-2", userID, ""); err != nil || res.Output["status"] != connectors.UserEnabled {
			t.Fatalf("enable #%d: %+v, %v", i+1, res, err)
		}
	}
	if n := p.count("patch"); n != 2 {
		t.Fatalf("PATCH sent %d times, want 2", n)
	}
}

func TestRevokeSessions(t *testing.T) {
	p := newGraphPeer(t)
	p.addUser(userID, userUPN)
	d := connect(t, p, p.secret)
	res, err := d.RevokeSessions(context.Background(), "act-3", userUPN, "token theft")
	if err != nil || !strings.Contains(res.Message, "revoked") || p.count("revoke") != 1 {
		t.Fatalf("revoke = %+v, %v (%d calls)", res, err, p.count("revoke"))
	}
}

func TestResetMFARemovesEveryDeletableMethod(t *testing.T) {
	p := newGraphPeer(t)
	mobile := pm("phone", "3179e48a-750b-4051-897c-87b9720928f7")
	mobile.phoneType, mobile.isDefault = "mobile", true
	alternate := pm("phone", "b6332ec1-7057-4abe-9331-3d72feddfe41")
	alternate.phoneType = "alternateMobile"
	p.addUser(userID, userUPN, pm("password", "28c10230-6103-485e-b985-444c60001490"), mobile, alternate,
		pm("microsoftAuthenticator", "ma-1"), pm("fido2", "fido-1"))
	d := connect(t, p, p.secret)
	res, err := d.ResetMFA(context.Background(), "act-4", userUPN, "attacker registered a device")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"fido2", "microsoftAuthenticator", "phone", "phone"}
	if !reflect.DeepEqual(res.Output["removed_methods"], want) || !reflect.DeepEqual(res.Output["kept_methods"], []string{"password"}) {
		t.Fatalf("result = %+v", res)
	}
	if got := p.methodsOf(userID); !reflect.DeepEqual(got, []string{"password"}) {
		t.Fatalf("left at the peer: %v", got)
	}
	again, err := d.ResetMFA(context.Background(), "act-4", userUPN, "")
	if err != nil || !strings.Contains(again.Message, "no removable") || p.count("delete") != 4 {
		t.Fatalf("repeat = %+v, %v (%d deletes)", again, err, p.count("delete"))
	}
}

func TestResetMFAReportsWhatGraphKeeps(t *testing.T) {
	p := newGraphPeer(t)
	phone := pm("phone", "3179e48a-750b-4051-897c-87b9720928f7")
	phone.phoneType, phone.isDefault = "mobile", true
	p.addUser(userID, userUPN, pm("password", "pw"), phone, pm("hardwareOath", "hw-1"), pm("email", "em-1"))
	d := connect(t, p, p.secret)
	_, err := d.ResetMFA(context.Background(), "act-5", userID, "")
	if !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "removed email") ||
		!strings.Contains(err.Error(), "could not remove phone") {
		t.Fatalf("err = %v", err)
	}
}

func TestUnknownUserIsNotFound(t *testing.T) {
	p := newGraphPeer(t)
	d := connect(t, p, p.secret)
	_, err := d.DisableUser(context.Background(), "k", "nobody@contoso.com", "")
	if !errors.Is(err, vendorhttp.ErrNotFound) || !errors.Is(err, connectors.ErrPermanent) || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("err = %v", err)
	}
}

func TestWrongSecretFailsOnceAsAuth(t *testing.T) {
	p := newGraphPeer(t)
	p.addUser(userID, userUPN)
	d := connect(t, p, "wrong-secret")
	_, err := d.DisableUser(context.Background(), "k", userID, "")
	if !errors.Is(err, vendorhttp.ErrAuth) || !errors.Is(err, connectors.ErrPermanent) || strings.Contains(err.Error(), "wrong-secret") {
		t.Fatalf("err = %v", err)
	}
	p.mu.Lock()
	calls := p.tokenCalls
	p.mu.Unlock()
	if calls != 1 {
		t.Fatalf("token requested %d times, want 1", calls)
	}
}

func TestMissingPermissionIsPermission(t *testing.T) {
	p := newGraphPeer(t)
	p.addUser(userID, userUPN)
	p.grant("User.RevokeSessions.All", false)
	d := connect(t, p, p.secret)
	_, err := d.RevokeSessions(context.Background(), "k", userID, "")
	if !errors.Is(err, vendorhttp.ErrPermission) || !strings.Contains(err.Error(), "Insufficient privileges") {
		t.Fatalf("err = %v", err)
	}
}

func TestRateLimitHonoursRetryAfterAndTest(t *testing.T) {
	p := newGraphPeer(t)
	p.throttle = 1
	d := connect(t, p, p.secret)
	start := time.Now()
	if err := d.Test(context.Background()); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 900*time.Millisecond {
		t.Fatalf("retried after %s, before the 1 s Retry-After", time.Since(start))
	}
	p.grant("User.Read.All", false)
	if err := d.Test(context.Background()); !errors.Is(err, vendorhttp.ErrPermission) {
		t.Fatalf("Test without User.Read.All: %v", err)
	}
}
