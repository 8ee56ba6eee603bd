{{/*
Names, labels and images shared by every template. Component templates are called with
(dict "root" $ "name" <entry name> "svc" <entry>).
*/}}

{{- define "shop.componentName" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end }}

{{- define "shop.selectorLabels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end }}

{{- define "shop.labels" -}}
{{ include "shop.selectorLabels" . }}
app.kubernetes.io/part-of: shop
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end }}

{{/* Labels every part of the shop carries (services and gateway), for NetworkPolicy selectors. */}}
{{- define "shop.partOfLabels" -}}
app.kubernetes.io/part-of: shop
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* registry/repository@digest when a digest is set (it wins over any tag), else registry/repository:tag. */}}
{{- define "shop.image" -}}
{{- $image := .svc.image -}}
{{- $global := .root.Values.global.image -}}
{{- $repository := $image.repository -}}
{{- if $global.registry -}}
{{- $repository = printf "%s/%s" $global.registry $image.repository -}}
{{- end -}}
{{- if $image.digest -}}
{{- if not (regexMatch "^sha256:[0-9a-f]{64}$" $image.digest) -}}
{{- fail (printf "services.%s.image.digest must look like sha256:<64 hex digits>, got %q" .name $image.digest) -}}
{{- end -}}
{{- printf "%s@%s" $repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository ($image.tag | default $global.tag | default .root.Chart.AppVersion) -}}
{{- end -}}
{{- end }}

{{/* Seconds a pod gets to stop: the preStop pause, the process's own shutdown bound, and a margin. */}}
{{- define "shop.terminationGracePeriodSeconds" -}}
{{- $shutdown := .root.Values.global.shutdown -}}
{{- add $shutdown.preStopSeconds .svc.shutdownSeconds $shutdown.marginSeconds -}}
{{- end }}
