package notify_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/store"
)

// received is one mail the SMTP peer accepted.
type received struct {
	from string
	to   []string
	data []byte
	tls  bool
	user string
}

type smtpPeer struct {
	mu    sync.Mutex
	mails []received
}

type smtpSession struct {
	peer *smtpPeer
	conn *smtp.Conn
	cur  received
}

func (s *smtpSession) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *smtpSession) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "vigil" || pass != "mailpass" {
			return errors.New("bad credentials")
		}
		s.cur.user = user
		return nil
	}), nil
}

func (s *smtpSession) Mail(from string, _ *smtp.MailOptions) error { s.cur.from = from; return nil }
func (s *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.cur.to = append(s.cur.to, to)
	return nil
}
func (s *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.data = b
	_, s.cur.tls = s.conn.TLSConnectionState()
	s.peer.mu.Lock()
	s.peer.mails = append(s.peer.mails, s.cur)
	s.peer.mu.Unlock()
	return nil
}
func (s *smtpSession) Reset()        { s.cur = received{user: s.cur.user} }
func (s *smtpSession) Logout() error { return nil }

// selfSigned makes a certificate for 127.0.0.1 and its PEM.
func selfSigned(t *testing.T) (tls.Certificate, string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func startSMTP(t *testing.T, implicit bool) (*smtpPeer, int, string) {
	cert, caPEM := selfSigned(t)
	p := &smtpPeer{}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &smtpSession{peer: p, conn: c}, nil
	}))
	srv.Domain = "127.0.0.1"
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	var ln net.Listener
	var err error
	if implicit {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", srv.TLSConfig)
	} else {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return p, ln.Addr().(*net.TCPAddr).Port, caPEM
}

func TestEmailOverSMTP(t *testing.T) {
	for _, mode := range []string{"starttls", "implicit"} {
		t.Run(mode, func(t *testing.T) {
			p, port, caPEM := startSMTP(t, mode == "implicit")
			svc := &notify.Service{Policy: local, Links: notify.Links{PublicURL: "https://vigil.example"}}
			ch := channel(notify.TypeEmail, map[string]any{"smtp_host": "127.0.0.1", "smtp_port": float64(port),
				"tls": mode, "username": "vigil", "from": "vigil@example.com",
				"to": []any{"soc@example.com", "oncall@example.com"}, "ca_pem": caPEM,
				"templates": map[string]any{"incident_resolved": map[string]any{"subject": "Done: {{.incident.title}}"}},
			}, map[string]string{"password": "mailpass"})
			ev, d := event(store.EventIncidentCreated, "high", "open", nil)
			if res := svc.Send(context.Background(), ch, notify.NewMessage(ev, d, svc.Links)); res.Err != nil {
				t.Fatal(res.Err)
			}
			ev2, d2 := event(store.EventIncidentResolved, "high", "resolved", nil)
			if res := svc.Send(context.Background(), ch, notify.NewMessage(ev2, d2, svc.Links)); res.Err != nil {
				t.Fatal(res.Err)
			}
			if len(p.mails) != 2 {
				t.Fatalf("got %d mails", len(p.mails))
			}
			m := p.mails[0]
			if !m.tls || m.user != "vigil" || m.from != "vigil@example.com" || strings.Join(m.to, ",") != "soc@example.com,oncall@example.com" {
				t.Fatalf("envelope: tls=%v user=%q from=%q to=%v", m.tls, m.user, m.from, m.to)
			}
			msg, err := mail.ReadMessage(bytes.NewReader(m.data))
			if err != nil {
				t.Fatal(err)
			}
			if got := msg.Header.Get("Subject"); got != "[Vigil] New incident: INC-2026-0042 Phishing wave" {
				t.Errorf("subject %q", got)
			}
			if got := msg.Header.Get("Message-Id"); got != "<"+d.ID+"@vigil>" {
				t.Errorf("Message-ID %q", got)
			}
			text, html := mimeBodies(t, msg)
			if !strings.Contains(text, "Severity: high") || !strings.Contains(text, "https://vigil.example/incidents/") {
				t.Errorf("text body: %s", text)
			}
			if !strings.Contains(html, "<td>high</td>") || !strings.Contains(html, `href="https://vigil.example/incidents/`) {
				t.Errorf("html body: %s", html)
			}
			msg2, _ := mail.ReadMessage(bytes.NewReader(p.mails[1].data))
			if got := msg2.Header.Get("Subject"); got != "Done: Phishing wave" {
				t.Errorf("overridden subject %q", got)
			}
		})
	}
}

// mimeBodies returns the text/plain and text/html parts.
func mimeBodies(t *testing.T, msg *mail.Message) (text, html string) {
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("content type %q: %v", msg.Header.Get("Content-Type"), err)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		part, err := r.NextPart()
		if err == io.EOF {
			return text, html
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(part)
		ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		switch ct {
		case "text/plain":
			text = string(b)
		case "text/html":
			html = string(b)
		}
	}
}
