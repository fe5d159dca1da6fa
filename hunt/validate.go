package hunt

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Hunt types and statuses.
var (
	HuntTypes    = []string{"scheduled", "continuous", "on_demand", "triggered"}
	HuntStatuses = []string{"draft", "active", "paused", "completed", "failed", "archived"}
)

var cronFields = []struct {
	name     string
	min, max int
}{{"minute", 0, 59}, {"hour", 0, 23}, {"day of month", 1, 31}, {"month", 1, 12}, {"day of week", 0, 7}}

// ValidateCron checks a 5-field cron expression (numbers, '*', ranges,
// lists and steps), naming the position of the first bad field.
func ValidateCron(expr string) error {
	fields := strings.Fields(expr)
	if len(fields) != 5 {
		return fmt.Errorf("must have 5 fields (minute hour day-of-month month day-of-week), has %d", len(fields))
	}
	for i, f := range fields {
		spec := cronFields[i]
		for _, part := range strings.Split(f, ",") {
			if err := cronPart(part, spec.min, spec.max); err != nil {
				return fmt.Errorf("field %d (%s) %q: %v", i+1, spec.name, f, err)
			}
		}
	}
	return nil
}

func cronPart(part string, lo, hi int) error {
	rng, step, hasStep := strings.Cut(part, "/")
	if hasStep {
		if n, err := strconv.Atoi(step); err != nil || n < 1 {
			return fmt.Errorf("step %q must be a positive number", step)
		}
	}
	if rng == "*" {
		return nil
	}
	a, b, isRange := strings.Cut(rng, "-")
	from, err := cronNumber(a, lo, hi)
	if err != nil {
		return err
	}
	if isRange {
		to, err := cronNumber(b, lo, hi)
		if err != nil {
			return err
		}
		if to < from {
			return fmt.Errorf("range %s ends before it starts", rng)
		}
	}
	return nil
}

func cronNumber(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not a number from %d to %d", s, lo, hi)
	}
	return n, nil
}

// ValidateTimezone checks an IANA time zone name.
func ValidateTimezone(tz string) error {
	if tz == "" {
		return nil
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return fmt.Errorf("unknown time zone %q", tz)
	}
	return nil
}

// CheckEnum reports a value outside a list.
func CheckEnum(v string, allowed []string) error {
	if !slices.Contains(allowed, v) {
		return fmt.Errorf("must be one of %s", strings.Join(allowed, ", "))
	}
	return nil
}
