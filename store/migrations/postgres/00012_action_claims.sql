-- +goose Up
-- The store is the record of every decision: the policy outcome, the
-- approver (by id, so the claim can check their role), and which workflow
-- claimed the action for execution.
ALTER TABLE actions ADD COLUMN decision TEXT NOT NULL DEFAULT '';
ALTER TABLE actions ADD COLUMN approved_by_id TEXT NOT NULL DEFAULT '';
ALTER TABLE actions ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE actions ADD COLUMN claimed_at TIMESTAMPTZ;
-- Decisions taken before these columns existed.
UPDATE actions SET decision = 'require_approval' WHERE status = 'pending_approval' OR approval_level <> '';
UPDATE actions SET decision = 'deny' WHERE decision = '' AND rejected_by LIKE 'policy:%';
UPDATE actions SET decision = 'auto_approve' WHERE decision = '' AND decision_reason <> '';
UPDATE actions SET approved_by_id = COALESCE((SELECT u.id FROM users u WHERE u.username = actions.approved_by), '')
    WHERE approved_by <> '';

-- Who started a run: the requester of every action the run requests
-- (empty for automated runs).
ALTER TABLE playbook_executions ADD COLUMN triggered_by_id TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE playbook_executions DROP COLUMN triggered_by_id;
ALTER TABLE actions DROP COLUMN claimed_at;
ALTER TABLE actions DROP COLUMN claimed_by;
ALTER TABLE actions DROP COLUMN approved_by_id;
ALTER TABLE actions DROP COLUMN decision;
