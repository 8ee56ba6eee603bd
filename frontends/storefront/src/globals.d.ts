declare const __SHOP_DEV__: boolean;
declare module '*.css';
