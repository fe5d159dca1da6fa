// Package deploy holds the deployment files' tests: the Kubernetes
// kustomization rendered and decoded strictly into the Kubernetes API types,
// and the single-host compose file loaded as the compose specification
// reads it. It is a module of its own so that its heavy dependencies stay
// out of Vigil's.
package deploy
