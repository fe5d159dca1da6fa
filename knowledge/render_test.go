package knowledge_test

import (
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/knowledge"
)

func TestRenderKeepsFormattingAndDropsWhatRuns(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		want      []string
		forbidden []string
	}{
		{"headings and lists", "# Title\n\n- one\n- **two**", []string{"<h1", "Title</h1>", "<li>one</li>", "<strong>two</strong>"}, nil},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>", "<td>1</td>"}, nil},
		{"raw script", "hello <script>alert(1)</script>", []string{"hello"}, []string{"<script", "alert(1)</script>"}},
		{"event handler", `<img src="x" onerror="alert(1)">`, nil, []string{"onerror"}},
		{"javascript link", "[click](javascript:alert(1))", []string{"click"}, []string{"javascript:"}},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD4=)", nil, []string{"data:text/html"}},
		{"iframe", `<iframe src="https://evil.example"></iframe>`, nil, []string{"<iframe"}},
		{"safe link", "[docs](https://example.com/a)", []string{`href="https://example.com/a"`, `rel="nofollow noopener"`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := knowledge.Render(tc.in)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in %s", w, got)
				}
			}
			for _, f := range tc.forbidden {
				if strings.Contains(got, f) {
					t.Errorf("kept %q in %s", f, got)
				}
			}
		})
	}
}
