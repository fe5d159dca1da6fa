package app_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
)

// testPKI is a throwaway CA with one server and one client certificate.
type testPKI struct {
	dir                  string
	caPool               *x509.CertPool
	server               tls.Certificate
	caPath               string
	clientCert, clientKy string
}

func newTestPKI(t *testing.T) *testPKI {
	t.Helper()
	p := &testPKI{dir: t.TempDir(), caPool: x509.NewCertPool()}
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "vigil test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	p.caPool.AddCert(ca)
	p.caPath = p.write(t, "ca.pem", "CERTIFICATE", caDER)
	issue := func(serial int64, name string, usage x509.ExtKeyUsage) ([]byte, *ecdsa.PrivateKey) {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			DNSNames: []string{name}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		return der, key
	}
	srvDER, srvKey := issue(2, "temporal.test", x509.ExtKeyUsageServerAuth)
	p.server = tls.Certificate{Certificate: [][]byte{srvDER}, PrivateKey: srvKey}
	cliDER, cliKey := issue(3, "vigil-worker", x509.ExtKeyUsageClientAuth)
	keyDER, _ := x509.MarshalECPrivateKey(cliKey)
	p.clientCert = p.write(t, "client.pem", "CERTIFICATE", cliDER)
	p.clientKy = p.write(t, "client.key", "EC PRIVATE KEY", keyDER)
	return p
}

func (p *testPKI) write(t *testing.T, name, kind string, der []byte) string {
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: kind, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startTLSProxy terminates TLS that requires a client certificate from
// the CA, and forwards the decrypted gRPC stream to the dev server, as a
// mTLS-only Temporal frontend would. It counts the handshakes that held a
// verified client certificate.
func startTLSProxy(t *testing.T, p *testPKI, backend string) (addr string, verified *atomic.Int64) {
	t.Helper()
	verified = &atomic.Int64{}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{
		Certificates: []tls.Certificate{p.server},
		ClientCAs:    p.caPool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		NextProtos:   []string{"h2"},
		MinVersion:   tls.VersionTLS12,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				tc := conn.(*tls.Conn)
				if err := tc.Handshake(); err != nil {
					return
				}
				if len(tc.ConnectionState().VerifiedChains) > 0 {
					verified.Add(1)
				}
				up, err := net.Dial("tcp", backend)
				if err != nil {
					return
				}
				defer up.Close()
				go func() { _, _ = io.Copy(up, conn); up.(*net.TCPConn).CloseWrite() }()
				_, _ = io.Copy(conn, up)
			}()
		}
	}()
	return ln.Addr().String(), verified
}

// TestTemporalOverMutualTLS configures Vigil only through the SDK's
// environment variables (TEMPORAL_ADDRESS, TEMPORAL_TLS_*) and runs
// `vigil serve` through a frontend that speaks nothing but mTLS: the
// worker polls and a triage completes over it; without the client
// certificate the dial is refused.
func TestTemporalOverMutualTLS(t *testing.T) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Stop()
	pki := newTestPKI(t)
	proxy, verified := startTLSProxy(t, pki, tmp.Server.FrontendHostPort())

	t.Setenv("TEMPORAL_CONFIG_FILE", filepath.Join(t.TempDir(), "none.toml"))
	t.Setenv("TEMPORAL_ADDRESS", proxy)
	t.Setenv("TEMPORAL_TLS_SERVER_CA_CERT_PATH", pki.caPath)
	t.Setenv("TEMPORAL_TLS_SERVER_NAME", "temporal.test")

	// Without a client certificate the frontend refuses the handshake.
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TemporalAddress != proxy {
		t.Fatalf("TEMPORAL_ADDRESS not read: %q", cfg.TemporalAddress)
	}
	shortCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
	if c, err := app.DialTemporal(shortCtx, cfg, testenv.Logger()); err == nil {
		c.Close()
		t.Fatal("dialled an mTLS frontend without a client certificate")
	}
	cancel()

	t.Setenv("TEMPORAL_TLS_CLIENT_CERT_PATH", pki.clientCert)
	t.Setenv("TEMPORAL_TLS_CLIENT_KEY_PATH", pki.clientKy)
	cfg, err = app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	srv := startServe(t, cfg)
	inc := srv.post(t, "/api/incidents", `{"incident_type":"malware","source":"edr","severity":"critical",
		"raw_data":{"DetectName":"Ransomware.Conti","CommandLine":"vssadmin delete shadows /all /quiet"}}`)
	tri := srv.post(t, "/api/incidents/"+inc["id"].(string)+"/triage", `{}`)
	if tri["status"] != "completed" {
		t.Fatalf("triage over mTLS: %v", tri)
	}
	if verified.Load() == 0 {
		t.Fatal("no connection through the proxy presented a verified client certificate")
	}
	srv.stop(t)
}

// TestTemporalClientOptionsFromProfile: a TOML profile selected by
// TEMPORAL_PROFILE supplies address, namespace and API key (which turns
// TLS on); TEMPORAL_NAMESPACE overrides the file.
func TestTemporalClientOptionsFromProfile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "temporal.toml")
	toml := "[profile.cloud]\naddress = \"vigil.a1b2c.tmprl.cloud:7233\"\nnamespace = \"vigil.a1b2c\"\napi_key = \"cloud-key\"\n"
	if err := os.WriteFile(file, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEMPORAL_CONFIG_FILE", file)
	t.Setenv("TEMPORAL_PROFILE", "cloud")
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TemporalAddress != "vigil.a1b2c.tmprl.cloud:7233" || cfg.TemporalNamespace != "vigil.a1b2c" {
		t.Fatalf("profile not applied: %q %q", cfg.TemporalAddress, cfg.TemporalNamespace)
	}
	opts, err := app.TemporalClientOptions(cfg, testenv.Logger())
	if err != nil {
		t.Fatal(err)
	}
	if opts.Credentials == nil || opts.ConnectionOptions.TLS == nil {
		t.Fatalf("API key should set credentials and TLS: %+v", opts.ConnectionOptions)
	}
	t.Setenv("TEMPORAL_NAMESPACE", "override")
	if cfg, _ = app.ConfigFromEnv(); cfg.TemporalNamespace != "override" {
		t.Fatalf("TEMPORAL_NAMESPACE did not override the profile: %q", cfg.TemporalNamespace)
	}
	t.Setenv("TEMPORAL_PROFILE", "missing")
	if _, err := app.ConfigFromEnv(); err == nil {
		t.Fatal("an unknown TEMPORAL_PROFILE was accepted")
	}
	var _ client.Options = opts
}
