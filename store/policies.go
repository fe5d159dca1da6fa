package store

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Policy is a rule deciding what happens to a requested response action:
// when Condition holds, Action applies (at ApprovalLevel for
// require_approval). The store keeps rules as given; the policy package
// validates and evaluates them.
type Policy struct {
	ID            string    `gorm:"primaryKey" json:"id"`
	Name          string    `json:"name"`
	Description   string    `json:"description"`
	Condition     string    `json:"condition"`
	Action        string    `json:"action"`
	ApprovalLevel string    `json:"approval_level"`
	Priority      int       `json:"priority"`
	Enabled       bool      `json:"enabled"`
	CreatedBy     string    `json:"-"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// policyOrder is the SQL form of ComparePolicies.
const policyOrder = "priority DESC, created_at ASC, id ASC"

// ComparePolicies defines the evaluation order of rules, the order in which
// ListPolicies and ListEnabledPolicies return them: higher Priority first,
// so a rule is promoted by raising its number; among equal priorities the
// older rule first, so adding a rule never silently overrides an existing
// one of the same priority; the id last, only to make the order total.
func ComparePolicies(a, b *Policy) int {
	if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
		return c
	}
	if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// CreatePolicy inserts p, filling in its id (when empty) and timestamps.
// A name already taken, ignoring case, is ErrConflict.
func (s *Store) CreatePolicy(ctx context.Context, p *Policy) error {
	if p.ID == "" {
		p.ID = uuid.NewString()
	}
	now := Now()
	p.CreatedAt, p.UpdatedAt = now, now
	defer s.policies.Forget()
	if err := s.db.WithContext(ctx).Create(p).Error; err != nil {
		return fmt.Errorf("create policy: %w", translate(err))
	}
	return nil
}

// GetPolicy reads one rule; a malformed id is ErrNotFound.
func (s *Store) GetPolicy(ctx context.Context, id string) (*Policy, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var p Policy
	if err := s.db.WithContext(ctx).Take(&p, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &p, nil
}

// ListPolicies returns every rule, enabled or not, in evaluation order.
func (s *Store) ListPolicies(ctx context.Context) ([]Policy, error) {
	var out []Policy
	if err := s.db.WithContext(ctx).Order(policyOrder).Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list policies: %w", err)
	}
	return out, nil
}

// ListEnabledPolicies returns the enabled rules in evaluation order.
func (s *Store) ListEnabledPolicies(ctx context.Context) ([]Policy, error) {
	var out []Policy
	err := s.db.WithContext(ctx).Where("enabled = ?", true).Order(policyOrder).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list enabled policies: %w", err)
	}
	return out, nil
}

// UpdatePolicy writes every editable field of p (all but id, creator and
// creation time) and sets p.UpdatedAt. An unknown id is ErrNotFound; a name
// already taken by another rule is ErrConflict.
func (s *Store) UpdatePolicy(ctx context.Context, p *Policy) error {
	if err := checkID(p.ID); err != nil {
		return err
	}
	now := Now()
	defer s.policies.Forget()
	// A map writes zero values too (enabled false, priority 0), which a
	// struct update would skip.
	res := s.db.WithContext(ctx).Model(&Policy{}).Where("id = ?", p.ID).Updates(map[string]any{
		"name":           p.Name,
		"description":    p.Description,
		"condition":      p.Condition,
		"action":         p.Action,
		"approval_level": p.ApprovalLevel,
		"priority":       p.Priority,
		"enabled":        p.Enabled,
		"updated_at":     now,
	})
	if res.Error != nil {
		return fmt.Errorf("update policy: %w", translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	p.UpdatedAt = now
	return nil
}

// DeletePolicy removes a rule; an unknown id is ErrNotFound.
func (s *Store) DeletePolicy(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	defer s.policies.Forget()
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&Policy{})
	if res.Error != nil {
		return fmt.Errorf("delete policy: %w", translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
