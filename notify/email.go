package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"github.com/vigil-soc/vigil/outbound"
	htmltemplate "html/template"
	"net"
	"strings"
	texttemplate "text/template"
	"time"

	"github.com/wneessen/go-mail"
)

// EmailTemplate is the subject, text and HTML body of one event's mail;
// config templates.<event> overrides any of them. They see .incident
// (title, severity, source, description, url, number, status), .event,
// .title and .text.
type EmailTemplate struct {
	Subject string
	Text    string
	HTML    string
}

var defaultEmailTemplate = EmailTemplate{
	Subject: "[Vigil] {{.title}}",
	Text: "{{.title}}\n\n{{if .text}}{{.text}}\n\n{{end}}Incident: {{.incident.number}} {{.incident.title}}\n" +
		"Severity: {{.incident.severity}}\nSource: {{.incident.source}}\nStatus: {{.incident.status}}\n" +
		"{{if .incident.description}}\n{{.incident.description}}\n{{end}}{{if .incident.url}}\nOpen: {{.incident.url}}\n{{end}}",
	HTML: `<h2>{{.title}}</h2>{{if .text}}<p>{{.text}}</p>{{end}}<table>` +
		`<tr><th align="left">Incident</th><td>{{.incident.number}} {{.incident.title}}</td></tr>` +
		`<tr><th align="left">Severity</th><td>{{.incident.severity}}</td></tr>` +
		`<tr><th align="left">Source</th><td>{{.incident.source}}</td></tr>` +
		`<tr><th align="left">Status</th><td>{{.incident.status}}</td></tr></table>` +
		`{{if .incident.description}}<p>{{.incident.description}}</p>{{end}}` +
		`{{if .incident.url}}<p><a href="{{.incident.url}}">Open in Vigil</a></p>{{end}}`,
}

// emailTemplate picks the event's template with the channel's overrides.
func emailTemplate(ch *Channel, event string) EmailTemplate {
	t := defaultEmailTemplate
	all, _ := ch.Config.V["templates"].(map[string]any)
	over, _ := all[event].(map[string]any)
	for key, dst := range map[string]*string{"subject": &t.Subject, "text": &t.Text, "html": &t.HTML} {
		if s, ok := over[key].(string); ok && s != "" {
			*dst = s
		}
	}
	return t
}

// RenderEmail renders the subject and both bodies of a message.
func RenderEmail(ch *Channel, m *Message) (subject, text, html string, err error) {
	t := emailTemplate(ch, m.Event)
	vars := map[string]any{"event": m.Event, "title": m.Title, "text": m.Text, "incident": map[string]any{
		"id": m.IncidentID, "number": m.IncidentNumber, "title": m.Data["title"], "severity": m.Severity,
		"source": m.Source, "description": m.Data["description"], "status": m.IncidentStatus, "url": m.Link,
	}}
	if subject, err = renderText(t.Subject, vars); err != nil {
		return "", "", "", fmt.Errorf("subject template: %w", err)
	}
	if text, err = renderText(t.Text, vars); err != nil {
		return "", "", "", fmt.Errorf("text template: %w", err)
	}
	h, err := htmltemplate.New("html").Option("missingkey=zero").Parse(t.HTML)
	if err != nil {
		return "", "", "", fmt.Errorf("html template: %w", err)
	}
	var buf bytes.Buffer
	if err := h.Execute(&buf, vars); err != nil {
		return "", "", "", fmt.Errorf("html template: %w", err)
	}
	return strings.ReplaceAll(strings.TrimSpace(subject), "\n", " "), text, buf.String(), nil
}

func renderText(src string, vars map[string]any) (string, error) {
	t, err := texttemplate.New("t").Option("missingkey=zero").Parse(src)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, vars); err != nil {
		return "", err
	}
	return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
}

// sendEmail sends the message over SMTP: implicit TLS (config tls
// "implicit"), STARTTLS required (use_tls true or tls "starttls"), or plain
// only when use_tls is false and tls is "none". The delivery id is the
// Message-ID, so a resent mail can be recognised.
func sendEmail(ctx context.Context, o outbound.Policy, ch *Channel, m *Message) Result {
	subject, text, html, err := RenderEmail(ch, m)
	if err != nil {
		return permanent(0, "%v", err)
	}
	msg := mail.NewMsg()
	if err := msg.From(ch.Str("from")); err != nil {
		return permanent(0, "from address: %v", err)
	}
	if err := msg.To(ch.List("to")...); err != nil {
		return permanent(0, "to addresses: %v", err)
	}
	msg.Subject(subject)
	msg.SetMessageIDWithValue(m.DeliveryID + "@vigil")
	msg.SetBodyString(mail.TypeTextPlain, text)
	msg.AddAlternativeString(mail.TypeTextHTML, html)
	msg.SetGenHeader(DeliveryHeader, m.DeliveryID)

	host := ch.Str("smtp_host")
	port := 587
	if p, ok := ch.Config.V["smtp_port"].(float64); ok && p > 0 {
		port = int(p)
	}
	hostport := fmt.Sprintf("%s:%d", host, port)
	if err := o.CheckURL("https://" + hostport); err != nil {
		return permanent(0, "smtp host: %v", err)
	}
	tlsConfig := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, RootCAs: rootCAs(ch)}
	opts := []mail.Option{mail.WithPort(port), mail.WithTimeout(30 * time.Second), mail.WithTLSConfig(tlsConfig),
		mail.WithDialContextFunc(o.DialContext)}
	switch mode := tlsMode(ch); mode {
	case "implicit":
		// A custom dialer replaces go-mail's TLS dial, so the checked
		// connection is wrapped here.
		opts = append(opts, mail.WithSSL(), mail.WithDialContextFunc(func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := o.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			tc := tls.Client(conn, tlsConfig)
			if err := tc.HandshakeContext(ctx); err != nil {
				_ = conn.Close()
				return nil, err
			}
			return tc, nil
		}))
	case "none":
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	}
	if user := ch.Str("username"); user != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(user), mail.WithPassword(ch.Str("password")))
	}
	client, err := mail.NewClient(host, opts...)
	if err != nil {
		return permanent(0, "smtp client: %v", err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return transient(0, fmt.Errorf("smtp: %w", err))
	}
	return ok(250)
}

func tlsMode(ch *Channel) string {
	if mode := ch.Str("tls"); mode != "" {
		return mode
	}
	if b, ok := ch.Config.V["use_tls"].(bool); ok && !b {
		return "none"
	}
	return "starttls"
}
