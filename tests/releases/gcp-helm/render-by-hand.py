#!/usr/bin/env python3
"""Renders GoogleCloudPlatform/flink-on-k8s-operator's Helm chart (helm-chart/flink-operator) at a
release tag by hand, as `helm template` would with the chart's default values and the two the
chart's README says to set (operatorImage.name, flinkOperatorNamespace.name), for a machine without
helm. Only possible because the chart's templates are trivial: every `{{ ... }}` in them is one of
those substituted below (the script fails on any other), every `if` is true with the defaults
(rbac.create, flinkOperatorNamespace.create, serviceAccount.create), and the helpers used are
`flink-operator.serviceAccountName` (the fullname: the release name when it contains the chart's
name) and `flink-operator.labels`. Templates are written in file order, not helm's kind order.

usage: render-by-hand.py GIT_DIR TAG NAMESPACE IMAGE > rendered.yaml
"""
import subprocess
import sys

git_dir, tag, namespace, image = sys.argv[1:5]
release = "flink-operator"  # the README's example: helm install --name flink-operator
chart = "helm-chart/flink-operator"


def show(path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{tag}:{chart}/{path}"],
                          check=True, capture_output=True, text=True).stdout


chart_yaml = dict(l.split(":", 1) for l in show("Chart.yaml").splitlines() if ":" in l)
name = chart_yaml["name"].strip()
version = chart_yaml["version"].strip().strip('"')
app_version = chart_yaml["appVersion"].strip().strip('"')
# The chart's fullname: the release name when it contains the chart's name.
fullname = release if name in release else f"{release}-{name}"
labels = "\n".join([
    f"app.kubernetes.io/name: {name}",
    f"helm.sh/chart: {name}-{version}",
    f"app.kubernetes.io/instance: {release}",
    f'app.kubernetes.io/version: "{app_version}"',
    "app.kubernetes.io/managed-by: Helm",
])
# values.yaml's `resources`, as `toYaml | nindent 10` writes it.
resources = "\n" + "\n".join(" " * 10 + l for l in [
    "limits:", "  cpu: 100m", "  memory: 128Mi", "requests:", "  cpu: 100m", "  memory: 128Mi"])
assert "memory: 128Mi" in show("values.yaml"), "values.yaml's resources changed"

substitutions = {
    "{{ .Values.flinkOperatorNamespace.name }}": namespace,
    "{{ .Values.replicas }}": "1",
    "{{ .Values.operatorImage.name }}": image,
    "{{ .Values.operatorImage.pullPolicy }}": "IfNotPresent",
    " {{ .Values.resources | toYaml | nindent 10 }}": resources,
    '{{ template "flink-operator.serviceAccountName" . }}': fullname,
    '{{ include "flink-operator.labels" . | indent 4 }}': "\n".join("    " + l for l in labels.splitlines()),
}
conditions = {"{{- if .Values.rbac.create }}", "{{ if .Values.rbac.create }}",
              "{{- if .Values.flinkOperatorNamespace.create }}", "{{- if .Values.serviceAccount.create -}}",
              "{{- end }}", "{{ end }}", "{{- end -}}"}

out = []
for template in ["serviceaccount.yaml", "flink-cluster-crd.yaml", "flink-operator.yaml", "generate-cert.yaml"]:
    text = show(f"templates/{template}")
    lines = []
    for line in text.splitlines():
        if line.strip() in conditions:
            continue
        for k, v in substitutions.items():
            line = line.replace(k, v)
        if "{{" in line:
            sys.exit(f"{template}: a template this script does not render: {line}")
        lines.append(line)
    out.append(f"# Source: flink-operator/templates/{template}\n" + "\n".join(lines).strip("\n") + "\n")
sys.stdout.write("---\n".join(out))
