{{/*
What a cluster operator expects around each workload: its own ServiceAccount (no API token), a
PodDisruptionBudget, a HorizontalPodAutoscaler and a NetworkPolicy. Called with
(dict "root" $ "name" <entry name> "svc" <entry>) for every entry of .Values.services.
*/}}

{{- define "shop.guards" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $svc := .svc -}}
{{- $global := $root.Values.global -}}
{{- $fullName := include "shop.componentName" . }}
{{- /* The entry with an ingress (the gateway) is the public door. */}}
{{- $public := hasKey $svc "ingress" }}
---
# The shop never calls the Kubernetes API: an identity of its own, and no token mounted.
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "shop.labels" . | nindent 4 }}
automountServiceAccountToken: false
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "shop.labels" . | nindent 4 }}
spec:
  # A node drain takes one pod at a time; with one replica the drain is not blocked.
  maxUnavailable: {{ $global.disruptionBudget.maxUnavailable }}
  # A pod that is not ready serves nothing: evicting it never costs availability.
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      {{- include "shop.selectorLabels" . | nindent 6 }}
{{- if $global.autoscaling.enabled }}
{{- if lt (int $svc.autoscaling.maxReplicas) (int $svc.replicas) }}
{{- fail (printf "services.%s.autoscaling.maxReplicas (%v) is below its replicas (%v)" $name $svc.autoscaling.maxReplicas $svc.replicas) }}
{{- end }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "shop.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $fullName }}
  minReplicas: {{ $svc.replicas }}
  maxReplicas: {{ $svc.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $global.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
{{- with $root.Values.networkPolicy }}
{{- if .enabled }}
{{- $policy := . }}
---
# Who may reach this part and what it may reach; everything else is refused (networkpolicies.yaml).
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ $fullName }}
  labels:
    {{- include "shop.labels" $ | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "shop.selectorLabels" $ | nindent 6 }}
  policyTypes: [Ingress, Egress]
  ingress:
    - ports:
        - port: http
          protocol: TCP
      from:
        {{- if $public }}
        # The public door: only the ingress controller.
        - namespaceSelector:
            {{- toYaml $policy.ingressController.namespaceSelector | nindent 12 }}
          podSelector:
            {{- toYaml $policy.ingressController.podSelector | nindent 12 }}
        {{- else }}
        # A service answers HTTP only to the gateway; services talk to each other over NATS.
        - podSelector:
            matchLabels:
              {{- include "shop.selectorLabels" (dict "root" $root "name" "gateway") | nindent 14 }}
        {{- end }}
  egress:
    - to:
        - namespaceSelector:
            {{- toYaml $policy.dns.namespaceSelector | nindent 12 }}
          podSelector:
            {{- toYaml $policy.dns.podSelector | nindent 12 }}
      ports:
        - { port: 53, protocol: UDP }
        - { port: 53, protocol: TCP }
    - to:
        - podSelector:
            matchLabels:
              {{- toYaml $policy.nats.podLabels | nindent 14 }}
              app.kubernetes.io/instance: {{ $root.Release.Name }}
      ports:
        - { port: {{ $policy.nats.port }}, protocol: TCP }
    {{- if hasKey ($svc.secretEnv | default dict) "MONGO_URL" }}
    - to:
        - podSelector:
            matchLabels:
              {{- toYaml $policy.mongodb.podLabels | nindent 14 }}
              app.kubernetes.io/instance: {{ $root.Release.Name }}
      ports:
        - { port: {{ $policy.mongodb.port }}, protocol: TCP }
    {{- end }}
    {{- if $public }}
    {{- range $other, $otherSvc := $root.Values.services }}
    {{- if and (ne $other $name) (ne (toString $otherSvc.enabled) "false") }}
    - to:
        - podSelector:
            matchLabels:
              {{- include "shop.selectorLabels" (dict "root" $root "name" $other) | nindent 14 }}
      ports:
        - { port: {{ $otherSvc.port }}, protocol: TCP }
    {{- end }}
    {{- end }}
    {{- end }}
    {{- with ($svc.internetEgress | default dict).ports }}
    # The provider this part calls (outside the cluster): public addresses only, never a pod.
    - to:
        - ipBlock:
            cidr: 0.0.0.0/0
            except:
              {{- toYaml $policy.privateRanges | nindent 14 }}
      ports:
        {{- range . }}
        - { port: {{ . }}, protocol: TCP }
        {{- end }}
    {{- end }}
    {{- with $policy.extraEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end }}
{{- end }}
{{- end }}
