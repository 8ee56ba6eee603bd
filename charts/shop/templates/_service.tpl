{{/*
One template set for every part of the shop. Each entry of .Values.services renders, through
"shop.service", a ConfigMap (plain settings), a Deployment and a Service. Call it with
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

{{- define "shop.image" -}}
{{- $image := .svc.image -}}
{{- $global := .root.Values.global.image -}}
{{- $tag := $image.tag | default $global.tag | default .root.Chart.AppVersion -}}
{{- if $global.registry -}}
{{- printf "%s/%s:%s" $global.registry $image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" $image.repository $tag -}}
{{- end -}}
{{- end }}

{{/* Plain settings: the shared ones (global.env) overridden by the entry's own (env). */}}
{{- define "shop.configData" -}}
{{- $root := .root -}}
PORT: {{ .svc.port | quote }}
{{- range $key, $value := merge (dict) (.svc.env | default dict) $root.Values.global.env }}
{{- $rendered := tpl (toString $value) $root }}
{{- if ne $rendered "" }}
{{ $key }}: {{ $rendered | quote }}
{{- end }}
{{- end }}
{{- end }}

{{- define "shop.service" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $svc := .svc -}}
{{- $global := $root.Values.global -}}
{{- $fullName := include "shop.componentName" . }}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "shop.labels" . | nindent 4 }}
data:
  {{- include "shop.configData" . | nindent 2 }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "shop.labels" . | nindent 4 }}
spec:
  replicas: {{ $svc.replicas }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "shop.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "shop.labels" . | nindent 8 }}
      annotations:
        # A changed setting rolls the pods (envFrom is read only at start).
        checksum/config: {{ include "shop.configData" . | sha256sum }}
    spec:
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: {{ $global.terminationGracePeriodSeconds }}
      {{- with $global.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        runAsNonRoot: true
        runAsUser: {{ $global.podSecurity.runAsUser }}
        runAsGroup: {{ $global.podSecurity.runAsGroup }}
        fsGroup: {{ $global.podSecurity.runAsGroup }}
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: {{ $name }}
          image: {{ include "shop.image" . | quote }}
          imagePullPolicy: {{ $global.image.pullPolicy }}
          ports:
            - name: http
              containerPort: {{ $svc.port }}
              protocol: TCP
          envFrom:
            - configMapRef:
                name: {{ $fullName }}
          {{- $secretEnv := merge (dict) ($svc.secretEnv | default dict) $global.secretEnv }}
          {{- if $secretEnv }}
          env:
            {{- range $key, $ref := $secretEnv }}
            # Secrets are referenced, never written into the chart.
            - name: {{ $key }}
              valueFrom:
                secretKeyRef:
                  name: {{ tpl $ref.secretName $root | quote }}
                  key: {{ $ref.key | quote }}
                  optional: {{ $ref.optional | default false }}
            {{- end }}
          {{- end }}
          startupProbe:
            httpGet:
              path: {{ $global.probes.liveness.path }}
              port: http
            periodSeconds: 2
            failureThreshold: {{ $global.probes.startupFailureThreshold }}
          livenessProbe:
            httpGet:
              path: {{ $global.probes.liveness.path }}
              port: http
            periodSeconds: {{ $global.probes.liveness.periodSeconds }}
            timeoutSeconds: {{ $global.probes.liveness.timeoutSeconds }}
            failureThreshold: {{ $global.probes.liveness.failureThreshold }}
          readinessProbe:
            httpGet:
              path: {{ $global.probes.readiness.path }}
              port: http
            periodSeconds: {{ $global.probes.readiness.periodSeconds }}
            timeoutSeconds: {{ $global.probes.readiness.timeoutSeconds }}
            failureThreshold: {{ $global.probes.readiness.failureThreshold }}
          resources:
            {{- toYaml $svc.resources | nindent 12 }}
          securityContext:
            runAsNonRoot: true
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: ["ALL"]
          volumeMounts:
            # The root filesystem is read-only; uploads in flight and library scratch files go here.
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $global.tmpSizeLimit }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "shop.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "shop.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ $svc.port }}
      targetPort: http
      protocol: TCP
{{- end }}
