package content

import (
	"fmt"

	"github.com/Masterminds/semver/v3"
)

// Incompatible says a package needs another Vigil version than the one
// running.
type Incompatible struct {
	Constraint string `json:"compatibility"`
	Running    string `json:"running_version"`
}

func (e *Incompatible) Error() string {
	return fmt.Sprintf("package needs Vigil %s; this is Vigil %s", e.Constraint, e.Running)
}

// checkVersion checks the manifest version is a semantic version.
func checkVersion(v string) error {
	if _, err := semver.StrictNewVersion(v); err != nil {
		return fmt.Errorf("%q is not a semantic version such as 1.2.0: %v", v, err)
	}
	return nil
}

// checkCompatibility checks the running version against constraint. A
// running version that is not a release (a development build) is not
// checked: the answer is a warning, not an error.
func checkCompatibility(constraint, running string) (warning string, incompatible *Incompatible, err error) {
	if constraint == "" {
		return "", nil, nil
	}
	c, err := semver.NewConstraint(constraint)
	if err != nil {
		return "", nil, fmt.Errorf("%q is not a version range such as >=2.0.0: %v", constraint, err)
	}
	v, verr := semver.NewVersion(running)
	if verr != nil {
		return fmt.Sprintf("compatibility %s not checked: this build (%s) has no release version", constraint, running), nil, nil
	}
	if !c.Check(v) {
		return "", &Incompatible{Constraint: constraint, Running: running}, nil
	}
	return "", nil, nil
}

// NewerThan reports whether version a is newer than b; versions that do
// not parse compare as not newer.
func NewerThan(a, b string) bool {
	va, err1 := semver.NewVersion(a)
	vb, err2 := semver.NewVersion(b)
	return err1 == nil && err2 == nil && va.GreaterThan(vb)
}
