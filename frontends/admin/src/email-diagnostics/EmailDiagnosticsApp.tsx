// The exposed module behind the shell's /debug/email route: the admin remote's frame (sign-in screen
// without a live session) around the diagnostics page.
import { AdminRoot } from '../AdminApp.js';
import { EmailDiagnosticsPage } from './EmailDiagnosticsPage.js';

export default function EmailDiagnosticsApp() {
  return <AdminRoot>{({ user }) => <EmailDiagnosticsPage user={user} />}</AdminRoot>;
}
