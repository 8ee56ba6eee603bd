// The shop's design system, shared by the shell and both remotes (consumed as TypeScript sources).
export { cn } from './cn.js';
export { Button, buttonClasses, type ButtonProps, type ButtonVariant, type ButtonSize } from './Button.js';
export { Card, CardHeader, CardTitle, CardBody } from './Card.js';
export { Badge, type BadgeProps, type BadgeTone } from './Badge.js';
export { Modal, DialogPrimitive, type ModalProps } from './Dialog.js';
export { Field, Input, Textarea, Select, Checkbox, type FieldProps, type CheckboxProps } from './Field.js';
export { ChoiceTile, ChoiceGroup, type ChoiceTileProps, type ChoiceGroupProps } from './Choice.js';
export { ProgressBar, type ProgressBarProps } from './Progress.js';
export { Alert, type AlertProps, type AlertTone } from './Alert.js';
export { Spinner, type SpinnerProps } from './Spinner.js';
export { Skeleton } from './Skeleton.js';
export { ErrorState, type ErrorStateProps } from './ErrorState.js';
export { Toaster, toast } from './Toast.js';
export { TabList, TabPanel, type TabItem, type TabListProps } from './Tabs.js';
export {
  DataTable,
  Cell,
  type DataTableProps,
  type DataColumn,
  type DataTableLook,
  type CellProps,
} from './DataTable.js';
