// The back office's views (spec: admin part A §2: one internal view switch inside /admin, not URL
// routes). Only views that work are listed; the first one is where a sign-in lands. A new view (the
// orders dashboard, analytics, support...) is one more entry here.
import type { ComponentType } from 'react';
import { Activity, BarChart3, ClipboardList, type LucideIcon } from 'lucide-react';
import { AnalyticsView } from './analytics/AnalyticsView.js';
import { OrdersDashboard } from './orders/OrdersDashboard.js';
import { SystemStatus } from './SystemStatus.js';

export interface AdminView {
  id: string;
  /** The header button's text. */
  label: string;
  icon: LucideIcon;
  Component: ComponentType;
}

export const ADMIN_VIEWS: readonly AdminView[] = [
  { id: 'system', label: 'System', icon: Activity, Component: SystemStatus },
  { id: 'dashboard', label: 'Orders', icon: ClipboardList, Component: OrdersDashboard },
  { id: 'analytics', label: 'Analytics', icon: BarChart3, Component: AnalyticsView },
];
