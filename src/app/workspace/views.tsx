// RouteId → the page a tab shows. Pages load lazily (one chunk per area). Routes whose screens
// belong to later versions (documents 2 and 3) show a clear "not available yet" panel, and a
// route the user has no permission for shows the spec's permission message instead of the page.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { ROUTES, type RouteId } from '../paths';
import { useCan } from '../state/session';
import { ForbiddenPanel, NotAvailablePanel, TabLoading } from './panels';

type Page = LazyExoticComponent<ComponentType>;

const PersonListPage: Page = lazy(() => import('../features/persons/person-list-page').then((m) => ({ default: m.PersonListPage })));
const PersonFormPage: Page = lazy(() => import('../features/persons/person-form-page').then((m) => ({ default: m.PersonFormPage })));

export const VIEWS: Partial<Record<RouteId, Page>> = {
  persons: PersonListPage,
  personAdd: PersonFormPage,
  personEdit: PersonFormPage,
  editOwnProfile: lazy(() => import('../features/profile/edit-profile-page').then((m) => ({ default: m.EditProfilePage }))),
};

export function RouteView({ route, href }: { route: RouteId; href: string }) {
  const can = useCan();
  if (!can(ROUTES[route].permission)) return <ForbiddenPanel route={route} />;
  const View = VIEWS[route];
  if (!View) return <NotAvailablePanel route={route} href={href} />;
  return (
    <Suspense fallback={<TabLoading />}>
      <View />
    </Suspense>
  );
}
