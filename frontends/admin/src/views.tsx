// The back office's views (spec: admin part A §2: one internal view switch inside /admin, not URL
// routes). Only views that work are listed; the first one is where a sign-in lands: the orders
// dashboard, the spec's default view. A new view (support, config...) is one more entry here; the
// browser test frontends/e2e/test/admin-layout.test.ts loads every entry at 1280 and 1024 px with axe.
import type { ComponentType } from 'react';
import {
  Activity,
  BarChart3,
  ClipboardList,
  FileText,
  LifeBuoy,
  Megaphone,
  Settings,
  ShieldAlert,
  ShieldCheck,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { AnalyticsView } from './analytics/AnalyticsView.js';
import { ContentView } from './content/ContentView.js';
import { CustomersView } from './customers/CustomersView.js';
import { MarketingView } from './marketing/MarketingView.js';
import { OrdersDashboard } from './orders/OrdersDashboard.js';
import { SupportView } from './support/SupportView.js';
import { SystemStatus } from './SystemStatus.js';
import { SiteConfigView } from './config/SiteConfigView.js';
import { ProductionView } from './production/ProductionView.js';
import { SecurityView } from './security/SecurityView.js';

export interface AdminView {
  id: string;
  /** The header button's text. */
  label: string;
  icon: LucideIcon;
  Component: ComponentType;
}

export const ADMIN_VIEWS: readonly AdminView[] = [
  { id: 'dashboard', label: 'Orders', icon: ClipboardList, Component: OrdersDashboard },
  { id: 'analytics', label: 'Analytics', icon: BarChart3, Component: AnalyticsView },
  { id: 'customers', label: 'Customers', icon: Users, Component: CustomersView },
  { id: 'support', label: 'Support', icon: LifeBuoy, Component: SupportView },
  { id: 'marketing', label: 'Marketing', icon: Megaphone, Component: MarketingView },
  { id: 'content', label: 'Content', icon: FileText, Component: ContentView },
  { id: 'security', label: 'Security', icon: ShieldAlert, Component: SecurityView },
  { id: 'config', label: 'Config', icon: Settings, Component: SiteConfigView },
  { id: 'production', label: 'Production', icon: ShieldCheck, Component: ProductionView },
  { id: 'system', label: 'System', icon: Activity, Component: SystemStatus },
];

/** Where a sign-in lands (spec §2: the dashboard), whatever order the header lists the views in. */
export const DEFAULT_VIEW_ID = 'dashboard';
