package triage

import (
	"regexp"
	"strings"
)

// Endpoint alerts on the organisation's own routine look like attacks: a
// nightly backup job syncing a share to a bucket, a system-state backup
// touching the directory database, assistive software hooking the
// keyboard, a remote-support client pushed to a desk. What tells them
// apart is provenance the alert carries beside the process: the job that
// ran it and its history, the management tool that installed it, how many
// of the organisation's machines run the same file. These readers fill
// that provenance wherever a product files it; the rules only weigh it
// when nothing the processes did is hostile.

// deploymentTools map what endpoint-management tools leave in an install
// record or on disk (a deployer's process, its package cache, its staging
// folder) to the tool: Configuration Manager, Intune, PDQ Deploy, Jamf,
// BigFix, Workspace ONE, KACE. Folders are under the system drive's
// administrator-only locations.
var deploymentTools = [][2]string{
	{"sccm", "configmgr"}, {"configmgr", "configmgr"}, {"configuration manager", "configmgr"},
	{"ccmexec", "configmgr"}, {`\windows\ccmcache\`, "configmgr"}, {`\windows\ccm\`, "configmgr"},
	{"intune", "intune"}, {`\windows\imecache\`, "intune"}, {"intunemanagementextension", "intune"},
	{"pdq deploy", "pdq"}, {"pdqdeploy", "pdq"}, {`\windows\adminarsenal\`, "pdq"},
	{"jamf", "jamf"}, {"bigfix", "bigfix"}, {"besclient", "bigfix"},
	{"workspace one", "workspaceone"}, {"airwatch", "workspaceone"}, {"kace", "kace"},
}

// installRecordKeys name where products file how a program was installed.
var installRecordKeys = []string{"installedby", "deployedby", "deployment", "deploymentsource", "deploymenttool", "installsource",
	"installer", "installmethod", "packagesource", "distributedby", "deploymentpackage", "installcontext", "softwaredeployment"}

// jobKeys name the scheduled or recurring job a process ran under.
var jobKeys = []string{"scheduledtask", "scheduledjob", "cronjob", "crontab", "backupjob", "recurringjob", "jobcontext", "taskcontext", "job", "task"}

// recurringRe recognises a job's trigger that repeats: a named period, an
// "every" interval, or a five-field cron expression.
var recurringRe = regexp.MustCompile(`(?i)\b(daily|nightly|weekly|monthly|hourly|weekdays|every\s+(\d+\s+)?(min|minute|hour|day|night|week|month)s?)\b|^\s*[\d*/,-]+\s+[\d*/,-]+\s+[\d*/,-]+\s+[\d*/,-]+\s+[\d*/,a-z-]+\s*$`)

// fleetKeys name the count of the organisation's own machines that run
// the same file (as opposed to a global prevalence across every customer).
var fleetKeys = []string{"machineswithsamehash", "hostswithsamehash", "deviceswithsamehash", "endpointswithsamehash", "localprevalence",
	"orgprevalence", "organizationprevalence", "organisationprevalence", "tenantprevalence", "fleetprevalence", "environmentprevalence"}

// readEndpointEstablished fills the established-provenance facts of f.
func readEndpointEstablished(d *doc, p processFacts, f *EndpointFields) {
	c := &f.Context
	c.OrgDeployment = orgDeployment(d, p, f)
	c.EstablishedJob = establishedJob(d) && (c.SystemContext || c.ServiceAccount || c.ManagementAgent != "" || runsAsServiceAccount(d))
	c.FleetHosts = fleetHosts(d)
	c.BackupSoftware = backupSoftware(d, p, f)
}

// backupProducts map what backup and replication products' programs,
// folders and hosts are called to the product.
var backupProducts = [][2]string{
	{"veeam", "veeam"}, {"acronis", "acronis"}, {"wbengine", "windows server backup"}, {"commvault", "commvault"},
	{"backup exec", "backup exec"}, {"beremote", "backup exec"}, {"netbackup", "netbackup"}, {"bpbkar", "netbackup"},
	{"rubrik", "rubrik"}, {"cohesity", "cohesity"}, {"datto", "datto"}, {"arcserve", "arcserve"}, {"macrium", "macrium"},
	{"druva", "druva"}, {"nakivo", "nakivo"}, {"altaro", "altaro"}, {"unitrends", "unitrends"},
	{"shadowprotect", "storagecraft"}, {"msp360", "msp360"}, {"cloudberry", "msp360"}, {"carbonite", "carbonite"},
	{"zerto", "zerto"}, {"veritas", "veritas"},
}

// backupSoftware names the backup product whose program is the alert's
// process or in its launch chain (by path, name, command line or the
// process's signer), or "". A program of that name in a user-writable
// folder anywhere in the chain rules it out, whatever else names the
// product: anyone can put a file there, and call it what they like.
func backupSoftware(d *doc, p processFacts, f *EndpointFields) string {
	chain := []string{p.Path, p.Name, commandImage(f.CommandLine), p.ParentPath, p.ParentName, p.ParentCommandLine, p.GrandparentName, p.ParentNames}
	chain = append(chain, d.strs("originatorprocess", "grandparentpath", "parentfilepath", "initiatingprocessparentfilename", "initiatingprocessfolderpath")...)
	if f.Signed && !f.SignatureBad {
		chain = append(chain, f.Signer)
	}
	named := ""
	for _, s := range chain {
		product := firstMarker(strings.ToLower(s), backupProducts)
		switch {
		case product != "" && writable(s):
			return ""
		case named == "":
			named = product
		}
	}
	return named
}

// orgDeployment names the management tool that installed the alert's
// program: from an install record, or from the deployer's package cache
// in the parent's command line or the program's own path; "" otherwise.
func orgDeployment(d *doc, p processFacts, f *EndpointFields) string {
	if tool := firstMarker(lowerJoin(d.strs(installRecordKeys...)), deploymentTools); tool != "" {
		return tool
	}
	paths := strings.ToLower(strings.Join([]string{p.ParentCommandLine, p.ParentPath, f.FilePath}, "\n"))
	for _, m := range deploymentTools {
		if strings.HasPrefix(m[0], `\windows\`) && strings.Contains(paths, m[0]) {
			return m[1]
		}
	}
	return ""
}

// establishedJob reports a job record in the payload that repeats on a
// schedule and has a history: at least a week of earlier runs, or both a
// creation date and a previous run.
func establishedJob(d *doc) bool {
	for _, m := range d.maps(jobKeys...) {
		jd := newDoc(m)
		if !recurringRe.MatchString(lowerJoin(jd.strs("trigger", "schedule", "frequency", "recurrence", "interval", "cron", "cronexpression", "period", "runs"))) {
			continue
		}
		for _, e := range jd.entries {
			if n, ok := asNumber(e.val); ok && n >= 7 && (strings.HasPrefix(e.key, "runs") || containsAnyTerm(e.key, "executions", "previousruns", "runcount", "timesrun", "historycount", "successfulruns")) {
				return true
			}
		}
		if jd.has("created", "createdat", "createdon", "registered", "registrationdate", "firstrun", "since") && jd.has("lastrun", "lastruntime", "previousrun", "lastsuccess", "lastsuccessfulrun") {
			return true
		}
	}
	return false
}

// runsAsServiceAccount reports a service or automation account named
// anywhere the payload lists users, accounts or the account a job runs as.
func runsAsServiceAccount(d *doc) bool {
	for _, e := range d.entries {
		s, ok := e.val.(string)
		if !ok || !containsAnyTerm(e.key, "user", "account", "runas", "principal", "entityvalue", "relatedentities") {
			continue
		}
		if serviceAccount(s) {
			return true
		}
	}
	return false
}

// fleetHosts is how many of the organisation's machines run the same
// file, 0 when the payload does not say; a prevalence object's local or
// organisation count is read too.
func fleetHosts(d *doc) int {
	if n, ok := d.number(fleetKeys...); ok {
		return int(n)
	}
	for _, m := range d.maps("prevalence", "fileprevalence", "hashprevalence") {
		pd := newDoc(m)
		if n, ok := pd.number("local", "organization", "organisation", "org", "tenant", "company", "customer"); ok {
			return int(n)
		}
	}
	return 0
}
