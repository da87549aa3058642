console.log('embedded')
