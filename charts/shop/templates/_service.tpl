{{/*
One template set for every part of the shop. Each entry of .Values.services renders, through
"shop.service", a ConfigMap (plain settings), a Deployment and a Service, and through "shop.guards"
(_guards.tpl) its ServiceAccount, PodDisruptionBudget, HorizontalPodAutoscaler and NetworkPolicy.
Call them with (dict "root" $ "name" <entry name> "svc" <entry>).
*/}}

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
  {{- if not $global.autoscaling.enabled }}
  replicas: {{ $svc.replicas }}
  {{- end }}
  {{- /* With autoscaling the HorizontalPodAutoscaler owns the count; an upgrade must not reset it. */}}
  revisionHistoryLimit: 5
  strategy:
    type: RollingUpdate
    rollingUpdate:
      # A new pod is ready before an old one goes: capacity never drops during a release.
      maxSurge: 1
      maxUnavailable: 0
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
      serviceAccountName: {{ $fullName }}
      automountServiceAccountToken: false
      terminationGracePeriodSeconds: {{ include "shop.terminationGracePeriodSeconds" . }}
      {{- with $global.topologySpread }}
      {{- if .enabled }}
      # Replicas spread over zones and nodes: one zone or node lost takes at most its share.
      topologySpreadConstraints:
        {{- range .topologyKeys }}
        - maxSkew: {{ $global.topologySpread.maxSkew }}
          topologyKey: {{ . }}
          whenUnsatisfiable: {{ $global.topologySpread.whenUnsatisfiable }}
          labelSelector:
            matchLabels:
              {{- include "shop.selectorLabels" $ | nindent 14 }}
          matchLabelKeys:
            - pod-template-hash
        {{- end }}
      {{- end }}
      {{- end }}
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
          lifecycle:
            # Endpoints and the ingress controller take a few seconds to stop sending traffic to a
            # terminating pod: keep serving through that pause, then SIGTERM starts the graceful stop.
            preStop:
              sleep:
                seconds: {{ $global.shutdown.preStopSeconds }}
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
