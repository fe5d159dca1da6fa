package playbook

import (
	"bytes"
	"errors"

	yaml "go.yaml.in/yaml/v3"
)

// Marshal renders a playbook as YAML that Parse reads back to an equal
// Playbook. Keys come in a fixed order (struct fields in declaration order,
// map keys sorted), so the same playbook always gives the same text.
func Marshal(p *Playbook) ([]byte, error) {
	if p == nil {
		return nil, errors.New("playbook is missing")
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	// Two spaces is how people write these files by hand.
	enc.SetIndent(2)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
