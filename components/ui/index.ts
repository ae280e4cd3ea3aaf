export { Button, type ButtonProps } from './Button';
export { Input, Textarea, type InputProps, type TextareaProps } from './Input';
export { Select, type SelectOption, type SelectProps } from './Select';
export { Badge, statusTone, type BadgeTone } from './Badge';
export { Table, type Column, type TableProps } from './Table';
export { Dialog, type DialogProps } from './Dialog';
export { Toaster, toast, useToasts } from './Toast';
export { Field } from './Field';
export { cn } from './cn';
