package content_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/content"
)

func mustCheck(t *testing.T, text string, opts content.Options) content.Report {
	t.Helper()
	_, rep := check(t, []byte(text), opts)
	return rep
}

func hasError(rep content.Report, field, fragment string) bool {
	for _, p := range rep.Errors {
		if p.Field == field && strings.Contains(p.Message, fragment) {
			return true
		}
	}
	return false
}

func TestValidationFindsEachMistakeWithItsPlace(t *testing.T) {
	const base = `{"manifest":{"name":"p","version":"1.0.0","author":"a","description":"d"},"contents":[%s]}`
	for _, tc := range []struct {
		name, items, field, fragment string
	}{
		{"unknown type", `{"type":"macro","name":"x"}`, "type", "unknown item type"},
		{"unnamed playbook", `{"type":"playbook","name":" ","data":{}}`, "name", "must not be empty"},
		{"untitled knowledge", `{"type":"knowledge","content":"x"}`, "title", "required"},
		{"undocumented field", `{"type":"knowledge","title":"t","content":"x","colour":"red"}`, "colour", "unknown field"},
		{"field of another type", `{"type":"knowledge","title":"t","query":"x"}`, "query", "unknown field"},
		{"playbook step", `{"type":"playbook","name":"P","data":{"name":"P","steps":[{"name":"s","action":"no_such_action"}]}}`, "data", "no_such_action"},
		{"playbook name mismatch", `{"type":"playbook","name":"P","data":{"name":"Q","steps":[{"name":"s","action":"block_sender","parameters":{"sender":"bad@example.com","reason":"r"}}]}}`, "data.name", "must match"},
		{"hunt cron", `{"type":"hunt","name":"H","data":{"hunt_type":"scheduled","schedule":{"cron_expression":"61 * * * *"},"queries":[{"query":"x"}]}}`, "data.schedule.cron_expression", "minute"},
		{"hunt without queries", `{"type":"hunt","name":"H","data":{"queries":[]}}`, "data.queries", "at least one"},
		{"hunt unknown field", `{"type":"hunt","name":"H","data":{"queries":[{"query":"x"}],"owner":"me"}}`, "data", "unknown field"},
		{"hunt unknown library query", `{"type":"hunt","name":"H","data":{"queries":[{"library_id":"nope"}]}}`, "data.queries[0].library_id", "no library query"},
		{"query type", `{"type":"query","name":"q1","query_type":"kql","query":"x"}`, "query_type", "unknown query type"},
		{"query name", `{"type":"query","name":"Bad Name","query_type":"sql","query":"x"}`, "name", "lower-case"},
		{"query template language", `{"type":"query","name":"q1","query_type":"sql","query":"x","templates":{"kql":"y"}}`, "templates.kql", "unknown query type"},
		{"duplicate names", `{"type":"knowledge","title":"Same","content":"a"},{"type":"knowledge","title":"same","content":"b"}`, "title", "appears twice"},
		{"huge title", `{"type":"knowledge","title":"` + strings.Repeat("x", content.MaxTitleLength+1) + `","content":"a"}`, "title", "at most"},
		{"huge content", `{"type":"knowledge","title":"t","content":"` + strings.Repeat("x", content.MaxContentLength+1) + `"}`, "content", "at most"},
		{"wrong value type", `{"type":"knowledge","title":"t","tags":"one"}`, "", "must be an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustCheck(t, fmt.Sprintf(base, tc.items), content.Options{})
			if rep.Valid || !hasError(rep, tc.field, tc.fragment) {
				t.Fatalf("want an error at %q containing %q; got %+v", tc.field, tc.fragment, rep.Errors)
			}
			for _, p := range rep.Errors {
				if p.Index == nil {
					t.Fatalf("item problem without its index: %+v", p)
				}
			}
			if rep.PackageError {
				t.Fatal("an item mistake made the whole package unusable")
			}
		})
	}
}

func TestManifestChecksAndWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, field, fragment string
	}{
		{"no name", `{"version":"1.0.0"}`, "manifest.name", "required"},
		{"bad name", `{"name":"../etc","version":"1.0.0"}`, "manifest.name", "letters"},
		{"no version", `{"name":"p"}`, "manifest.version", "required"},
		{"not semver", `{"name":"p","version":"1.0"}`, "manifest.version", "semantic version"},
		{"bad range", `{"name":"p","version":"1.0.0","compatibility":">>2"}`, "manifest.compatibility", "version range"},
		{"unknown manifest field", `{"name":"p","version":"1.0.0","homepage":"x"}`, "manifest.homepage", "unknown"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustCheck(t, `{"manifest":`+tc.manifest+`,"contents":[]}`, content.Options{})
			if !hasError(rep, tc.field, tc.fragment) || !rep.PackageError {
				t.Fatalf("want %s %q as a package error; got %+v", tc.field, tc.fragment, rep.Errors)
			}
		})
	}
	rep := mustCheck(t, `{"manifest":{"name":"p","version":"1.0.0"},"contents":[]}`, content.Options{})
	if !rep.Valid || len(rep.Warnings) != 3 || rep.ContentCount != 0 {
		t.Fatalf("want valid with warnings for author, description and empty contents: %+v", rep)
	}
}

func TestCompatibilityRanges(t *testing.T) {
	for _, tc := range []struct {
		constraint, running string
		incompatible        bool
		warns               bool
	}{
		{">=2.0.0", "2.3.1", false, false},
		{">=2.0.0", "v2.0.0", false, false},
		{">=2.0.0", "1.9.9", true, false},
		{">=2.0.0, <3.0.0", "3.0.0", true, false},
		{"^2.1", "2.4.0", false, false},
		{"~2.1.0", "2.2.0", true, false},
		{">=2.0.0", "devel", false, true},
		{">=2.0.0", "devel+abc123", false, true},
	} {
		t.Run(tc.constraint+" on "+tc.running, func(t *testing.T) {
			text := `{"manifest":{"name":"p","version":"1.0.0","author":"a","description":"d","compatibility":"` + tc.constraint + `"},"contents":[{"type":"knowledge","title":"t","content":"c"}]}`
			rep := mustCheck(t, text, content.Options{ServiceVersion: tc.running})
			if (rep.Incompatible != nil) != tc.incompatible {
				t.Fatalf("incompatible = %+v, want %v", rep.Incompatible, tc.incompatible)
			}
			if tc.incompatible && (!strings.Contains(rep.Incompatible.Error(), tc.constraint) || !strings.Contains(rep.Incompatible.Error(), tc.running)) {
				t.Fatalf("message %q must name both versions", rep.Incompatible.Error())
			}
			if got := len(rep.Warnings) > 0; got != tc.warns {
				t.Fatalf("warnings %v, want some: %v", rep.Warnings, tc.warns)
			}
		})
	}
}

func TestLimitsAndHostileInput(t *testing.T) {
	deep := `{"manifest":{"name":"p","version":"1.0.0"},"contents":[{"type":"hunt","name":"h","data":` +
		strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat(`}`, 10000) + `}]}`
	many := make([]string, content.MaxItems+1)
	for i := range many {
		many[i] = fmt.Sprintf(`{"type":"knowledge","title":"t%d","content":"c"}`, i)
	}
	tooMany := `{"manifest":{"name":"p","version":"1.0.0"},"contents":[` + strings.Join(many, ",") + `]}`
	huge := `{"manifest":{"name":"p","version":"1.0.0","description":"` + strings.Repeat("x", content.MaxSize) + `"}}`
	for _, tc := range []struct {
		name, text string
		want       error
	}{
		{"deep nesting", deep, content.ErrUnreadable},
		{"too many items", tooMany, content.ErrTooManyItems},
		{"too large", huge, content.ErrTooLarge},
		{"not json", `manifest: {name: p}`, content.ErrUnreadable},
		{"array at top", `[1,2,3]`, content.ErrUnreadable},
		{"truncated", `{"manifest":{"name":"p"`, content.ErrUnreadable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := content.Check([]byte(tc.text), content.Options{}); !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
	// Exactly the item limit is fine.
	if _, rep, err := content.Check([]byte(`{"manifest":{"name":"p","version":"1.0.0"},"contents":[`+strings.Join(many[:content.MaxItems], ",")+`]}`), content.Options{}); err != nil || !rep.Valid {
		t.Fatalf("%d items: %v %v", content.MaxItems, err, rep.Errors)
	}
	// Invalid UTF-8 and a null item.
	rep := mustCheck(t, "{\"manifest\":{\"name\":\"p\",\"version\":\"1.0.0\"},\"contents\":[null,{\"type\":\"knowledge\",\"title\":\"t\",\"content\":\"\xff\xfe\"}]}", content.Options{})
	if rep.Valid || len(rep.Errors) != 1 {
		t.Fatalf("null item: %+v", rep.Errors)
	}
}

func TestSignatures(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	otherPub, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	_ = otherPub
	trusted := []content.TrustedKey{{Name: "blue-team", PublicKey: base64.StdEncoding.EncodeToString(pub)}}
	signed := func(key ed25519.PrivateKey, tamper func(*content.Package)) []byte {
		p, _ := check(t, samplePackage("1.0.0"), content.Options{})
		if err := content.Sign(p, key); err != nil {
			t.Fatal(err)
		}
		if tamper != nil {
			tamper(p)
		}
		b, _ := json.MarshalIndent(p, "", "  ")
		return b
	}
	for _, tc := range []struct {
		name     string
		text     []byte
		require  bool
		valid    bool
		signedBy string
		fragment string
	}{
		{"good", signed(priv, nil), true, true, "blue-team", ""},
		{"good, not required", signed(priv, nil), false, true, "blue-team", ""},
		{"tampered item", signed(priv, func(p *content.Package) { p.Contents[2].Content = "evil" }), true, false, "", "does not match"},
		{"tampered manifest", signed(priv, func(p *content.Package) { p.Manifest.Version = "9.9.9" }), false, false, "", "does not match"},
		{"unknown key", signed(otherPriv, nil), true, false, "", "not trusted"},
		{"unsigned", samplePackage("1.0.0"), true, false, "", "not signed"},
		{"unsigned, not required", samplePackage("1.0.0"), false, true, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := mustCheck(t, string(tc.text), content.Options{RequireSignature: tc.require, TrustedKeys: trusted})
			if rep.Valid != tc.valid || rep.SignedBy != tc.signedBy {
				t.Fatalf("valid %v signed by %q; want %v %q (%v)", rep.Valid, rep.SignedBy, tc.valid, tc.signedBy, rep.Errors)
			}
			if tc.fragment != "" && !hasError(rep, "signature", tc.fragment) {
				t.Fatalf("want a signature error with %q: %+v", tc.fragment, rep.Errors)
			}
			if !tc.valid && !rep.PackageError {
				t.Fatal("a signature failure must stop the whole package")
			}
		})
	}
	// Reformatting does not break a signature.
	var generic any
	_ = json.Unmarshal(signed(priv, nil), &generic)
	compact, _ := json.Marshal(generic)
	if rep := mustCheck(t, string(compact), content.Options{RequireSignature: true, TrustedKeys: trusted}); !rep.Valid {
		t.Fatalf("re-encoded signed package: %+v", rep.Errors)
	}
	// PEM keys round-trip.
	pemText, err := content.MarshalPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := content.ParsePrivateKey(pemText); err != nil || !back.Equal(priv) {
		t.Fatalf("pem round trip: %v", err)
	}
}
