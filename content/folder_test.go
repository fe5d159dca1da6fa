package content_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/content"
)

func TestFolderRefusesYAMLBombsAndDeepNesting(t *testing.T) {
	laughs := "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		laughs += n + ": &" + n + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = n
	}
	deep := "name: deep\nqueries: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n"
	for _, tc := range []struct{ name, file, text, want string }{
		{"billion laughs", "hunts/laughs.yaml", laughs, "aliases"},
		{"deep nesting", "hunts/deep.yaml", deep, "nests more than"},
		{"two documents", "queries/two.yaml", "name: a\n---\nname: b\n", "one YAML document"},
		{"not a mapping", "queries/list.yaml", "- a\n- b\n", "mapping"},
		{"broken yaml", "queries/broken.yaml", "name: [unclosed\n", "invalid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(tc.file)), 0o755); err != nil {
				t.Fatal(err)
			}
			_ = os.WriteFile(filepath.Join(dir, "manifest.yaml"), []byte("name: p\nversion: 1.0.0\n"), 0o644)
			_ = os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.text), 0o644)
			f, problems, err := content.BuildFolder(dir)
			if err != nil {
				t.Fatal(err)
			}
			if f == nil {
				t.Fatal("a file's problem stopped the whole folder")
			}
			if len(problems) != 1 || !strings.Contains(problems[0].Message, tc.want) || problems[0].File == "" || problems[0].Line == 0 {
				t.Fatalf("problems %+v, want one with %q, file and line", problems, tc.want)
			}
		})
	}
}
