// The one door to react-router for the shell and both remotes (`@shop/ui/router`). Module Federation
// shares this module as the singleton instead of react-router itself: a shared package is bundled whole
// (a remote may ask for any export), while this module names only what the apps use, so the shell's
// shared chunk keeps just those parts of react-router. One copy across shell and remotes still means
// one router context. Add a name here before using it in any app; importing react-router directly in
// an app would give that app a second router copy without the shell's routing context.
export {
  createBrowserRouter,
  isRouteErrorResponse,
  Link,
  NavLink,
  Outlet,
  replace,
  ScrollRestoration,
  useLocation,
  useNavigate,
  useParams,
  useRouteError,
  type RouteObject,
} from 'react-router';
export { RouterProvider } from 'react-router/dom';
