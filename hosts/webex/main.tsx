import { mountConsole } from '../../src/main';
import { createWebexHost } from './host';

mountConsole(createWebexHost());
