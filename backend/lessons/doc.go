// Package lessons keeps a child's lessons as ordinary files in a folder that parents can open, back up and edit with other programs, is the one package that writes that folder, and follows every change made to it from outside.
package lessons
