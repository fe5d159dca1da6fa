package deploy

import (
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// rendered is a kustomization's output decoded into typed objects.
type rendered struct {
	deployments     map[string]*appsv1.Deployment
	services        map[string]*corev1.Service
	hpas            []*autoscalingv2.HorizontalPodAutoscaler
	jobs            []*batchv1.Job
	serviceMonitors []*monitoringv1.ServiceMonitor
	configMaps      map[string]*corev1.ConfigMap
	namespaces      []string
}

// render builds a kustomization from disk and decodes every object
// strictly: an unknown or misplaced field fails, as the API server's
// strict field validation would.
func render(t *testing.T, dir string) rendered {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize %s: %v", dir, err)
	}
	out := rendered{deployments: map[string]*appsv1.Deployment{}, services: map[string]*corev1.Service{},
		configMaps: map[string]*corev1.ConfigMap{}}
	for _, res := range m.Resources() {
		raw, err := res.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		kind, name := res.GetKind(), res.GetName()
		var obj any
		switch kind {
		case "Deployment":
			d := &appsv1.Deployment{}
			out.deployments[name], obj = d, d
		case "Service":
			s := &corev1.Service{}
			out.services[name], obj = s, s
		case "HorizontalPodAutoscaler":
			h := &autoscalingv2.HorizontalPodAutoscaler{}
			out.hpas, obj = append(out.hpas, h), h
		case "Job":
			j := &batchv1.Job{}
			out.jobs, obj = append(out.jobs, j), j
		case "ServiceMonitor":
			s := &monitoringv1.ServiceMonitor{}
			out.serviceMonitors, obj = append(out.serviceMonitors, s), s
		case "ConfigMap":
			c := &corev1.ConfigMap{}
			out.configMaps[name], obj = c, c
		case "ServiceAccount":
			obj = &corev1.ServiceAccount{}
		case "PodDisruptionBudget":
			obj = &policyv1.PodDisruptionBudget{}
		case "Namespace":
			obj = &corev1.Namespace{}
			out.namespaces = append(out.namespaces, name)
		default:
			t.Fatalf("%s: no type to check kind %s against", dir, kind)
		}
		if err := yaml.UnmarshalStrict(raw, obj); err != nil {
			t.Errorf("%s %s/%s does not decode strictly: %v", dir, kind, name, err)
		}
	}
	return out
}

func TestKustomizationsRenderIntoValidObjects(t *testing.T) {
	for _, dir := range []string{"k8s/base", "k8s/overlays/production"} {
		t.Run(dir, func(t *testing.T) {
			r := render(t, dir)
			api, worker := r.deployments["vigil-api"], r.deployments["vigil-worker"]
			if api == nil || worker == nil || len(r.jobs) != 1 || len(r.hpas) != 1 || len(r.serviceMonitors) != 1 {
				t.Fatalf("objects missing: deployments %d, jobs %d, hpas %d, service monitors %d",
					len(r.deployments), len(r.jobs), len(r.hpas), len(r.serviceMonitors))
			}
			checkProbes(t, api, 8080)
			checkProbes(t, worker, 9091)
			for _, pod := range []corev1.PodSpec{api.Spec.Template.Spec, worker.Spec.Template.Spec, r.jobs[0].Spec.Template.Spec} {
				checkPod(t, pod, r.configMaps)
			}
			if args := r.jobs[0].Spec.Template.Spec.Containers[0].Args; !slices.Equal(args, []string{"migrate", "up"}) {
				t.Errorf("migration job runs %v", args)
			}
			hpa := r.hpas[0]
			if hpa.Spec.ScaleTargetRef.Kind != "Deployment" || r.deployments[hpa.Spec.ScaleTargetRef.Name] == nil ||
				hpa.Spec.ScaleTargetRef.Name != "vigil-api" {
				t.Errorf("HPA scales %+v", hpa.Spec.ScaleTargetRef)
			}
			checkServiceMonitor(t, r)
		})
	}
	prod := render(t, "k8s/overlays/production")
	if !slices.Contains(prod.namespaces, "vigil") || prod.deployments["vigil-api"].Namespace != "vigil" {
		t.Error("production overlay does not put everything in namespace vigil")
	}
	if img := prod.deployments["vigil-worker"].Spec.Template.Spec.Containers[0].Image; img != "ghcr.io/vigil-soc/vigil:v1.0.0" {
		t.Errorf("production image %q is not pinned", img)
	}
	if *prod.deployments["vigil-worker"].Spec.Replicas != 3 || prod.hpas[0].Spec.MaxReplicas != 10 {
		t.Error("production patches not applied")
	}
}

// checkProbes wants startup, liveness on /live and readiness on /ready, all
// on the container port that serves them.
func checkProbes(t *testing.T, d *appsv1.Deployment, port int32) {
	t.Helper()
	c := d.Spec.Template.Spec.Containers[0]
	ports := map[string]int32{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	for name, p := range map[string]*corev1.Probe{"startup": c.StartupProbe, "liveness": c.LivenessProbe, "readiness": c.ReadinessProbe} {
		if p == nil || p.HTTPGet == nil {
			t.Errorf("%s: no HTTP %s probe", d.Name, name)
			continue
		}
		want := "/live"
		if name == "readiness" {
			want = "/ready"
		}
		if p.HTTPGet.Path != want || ports[p.HTTPGet.Port.String()] != port {
			t.Errorf("%s: %s probe %s on %s, want %s on port %d", d.Name, name, p.HTTPGet.Path, p.HTTPGet.Port.String(), want, port)
		}
	}
}

// checkPod wants a non-root, read-only container whose secrets come only
// from Secret references and whose ConfigMaps exist.
func checkPod(t *testing.T, pod corev1.PodSpec, configMaps map[string]*corev1.ConfigMap) {
	t.Helper()
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Error("pod may run as root")
	}
	for _, c := range pod.Containers {
		if sc := c.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s: root filesystem writable", c.Name)
		}
		for _, e := range c.Env {
			secret := strings.Contains(e.Name, "KEY") || strings.Contains(e.Name, "DATABASE_URL") || strings.Contains(e.Name, "PASSWORD")
			if secret && (e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil) {
				t.Errorf("%s: %s is not taken from a Secret", c.Name, e.Name)
			}
		}
		for _, from := range c.EnvFrom {
			if from.ConfigMapRef != nil && configMaps[from.ConfigMapRef.Name] == nil {
				t.Errorf("%s: ConfigMap %s is not rendered", c.Name, from.ConfigMapRef.Name)
			}
		}
		for name, v := range configMapValues(configMaps) {
			if strings.Contains(name, "SECRET") || strings.Contains(name, "API_KEY") || strings.Contains(name, "DATABASE_URL") {
				t.Errorf("ConfigMap holds %s=%s, a secret", name, v)
			}
		}
	}
}

func configMapValues(cms map[string]*corev1.ConfigMap) map[string]string {
	out := map[string]string{}
	for _, cm := range cms {
		for k, v := range cm.Data {
			out[k] = v
		}
	}
	return out
}

// checkServiceMonitor wants every endpoint to name a port of a Service the
// monitor selects.
func checkServiceMonitor(t *testing.T, r rendered) {
	t.Helper()
	sm := r.serviceMonitors[0]
	ports := map[string]bool{}
	for _, svc := range r.services {
		if matches(sm.Spec.Selector.MatchLabels, svc.Labels) {
			for _, p := range svc.Spec.Ports {
				ports[p.Name] = true
			}
		}
	}
	for _, ep := range sm.Spec.Endpoints {
		if !ports[ep.Port] {
			t.Errorf("ServiceMonitor scrapes port %q, which no selected Service has (have %v)", ep.Port, ports)
		}
		if ep.Path != "/metrics" {
			t.Errorf("ServiceMonitor path %q", ep.Path)
		}
	}
}

func matches(selector, labels map[string]string) bool {
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return len(selector) > 0
}
