package playbook

// fullExample exercises every kind of step and every optional field. Tests
// that need line numbers count from the "name:" line, which is line 1.
const fullExample = `name: Phishing triage
description: Contain a reported phish
version: "1.0"
triggers:
  incident_type: phishing
  auto_run: true
variables:
  notify_channel: email
  min_confidence: 0.8
steps:
  - name: quarantine
    action: quarantine_email
    parameters:
      message_id: "{{ incident.raw_data.message_id }}"
      reason: "Playbook {{ playbook.name }} on {{ incident.number }}"
    output: quarantine
    continue_on_error: true
  - name: check_verdict
    condition: 'incident.verdict.classification == "malicious" && incident.verdict.confidence >= variables.min_confidence'
    then: continue
    else: stop
  - name: ask
    ai_analysis:
      question: "Which users received this message?"
    output: analysis
  - name: contain
    parallel:
      - - name: block
          action: block_sender
          parameters: { sender: "{{ incident.raw_data.sender }}" }
      - - name: notify
          action: notify_user
          parameters: { user: "{{ incident.raw_data.recipients[0] }}", message: "We quarantined a phish sent to you.", channel: "{{ variables.notify_channel }}" }
`

// fullExamplePlaybook is what fullExample decodes to.
func fullExamplePlaybook() *Playbook {
	return &Playbook{
		Name:        "Phishing triage",
		Description: "Contain a reported phish",
		Version:     "1.0",
		Triggers:    Triggers{IncidentType: "phishing", AutoRun: true},
		Variables:   map[string]any{"notify_channel": "email", "min_confidence": 0.8},
		Steps: []Step{
			{
				Name:   "quarantine",
				Action: "quarantine_email",
				Parameters: map[string]any{
					"message_id": "{{ incident.raw_data.message_id }}",
					"reason":     "Playbook {{ playbook.name }} on {{ incident.number }}",
				},
				Output:          "quarantine",
				ContinueOnError: true,
			},
			{
				Name:      "check_verdict",
				Condition: `incident.verdict.classification == "malicious" && incident.verdict.confidence >= variables.min_confidence`,
				Then:      "continue",
				Else:      "stop",
			},
			{
				Name:       "ask",
				AIAnalysis: &AIAnalysis{Question: "Which users received this message?"},
				Output:     "analysis",
			},
			{
				Name: "contain",
				Parallel: [][]Step{
					{{Name: "block", Action: "block_sender", Parameters: map[string]any{"sender": "{{ incident.raw_data.sender }}"}}},
					{{Name: "notify", Action: "notify_user", Parameters: map[string]any{
						"user":    "{{ incident.raw_data.recipients[0] }}",
						"message": "We quarantined a phish sent to you.",
						"channel": "{{ variables.notify_channel }}",
					}}},
				},
			},
		},
	}
}
