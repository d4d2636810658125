{{- define "kubectl-flink.fullname" -}}
{{- printf "%s-watch" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "kubectl-flink.labels" -}}
app.kubernetes.io/name: kubectl-flink-watch
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
