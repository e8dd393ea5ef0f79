/**
 * The dashboard's first screen: the signed-in user's layout and the overview. The user's other
 * screens are in `user-pages.ts`, fetched when the browser is idle once the dashboard is up
 * (`UserAreaLayout`), so moving to them rarely waits. Chart.js comes with the charts that draw it.
 */

export { OverviewPage } from '../user-area/overview-page.tsx';
export { UserAreaLayout } from '../user-area/user-area-layout.tsx';
